import http from 'k6/http';
import exec from 'k6/execution';

const URL = "http://127.0.0.1:18411/sleep?ms=25";
const METHOD = "GET";
const BODY = null;
const PARAMS = { timeout: '30000ms' };

export const options = {
  discardResponseBodies: true,
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'p(99.9)'],
  systemTags: ['status', 'error_code'],
  scenarios: {
    load: {
      executor: 'ramping-vus',
      startVUs: 0,
      stages: [
        { duration: '200ms', target: 5 },
        { duration: '600ms', target: 5 },
        { duration: '200ms', target: 0 },
      ],
      gracefulRampDown: '30000ms',
      gracefulStop: '30000ms',
    },
  },
};

const HOLD_FROM_MS = 200, HOLD_TO_MS = 800;
let phase = '';

export default function () {
  const t = exec.instance.currentTestRunDuration;
  const now = t >= HOLD_FROM_MS && t < HOLD_TO_MS ? 'hold' : 'ramp';
  if (now !== phase) {
    exec.vu.metrics.tags.phase = now;
    phase = now;
  }
  http.request(METHOD, URL, BODY, PARAMS);
}
