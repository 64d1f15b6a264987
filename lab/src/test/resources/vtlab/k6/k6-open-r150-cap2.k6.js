import http from 'k6/http';

const URL = "http://127.0.0.1:18411/sleep?ms=25";
const METHOD = "GET";
const BODY = null;
const PARAMS = { timeout: '27ms' };

export const options = {
  discardResponseBodies: true,
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'p(99.9)'],
  systemTags: ['status', 'error_code'],
  scenarios: {
    load: {
      executor: 'constant-arrival-rate',
      rate: 150, timeUnit: '1s',
      duration: '1000ms',
      preAllocatedVUs: 2, maxVUs: 2,
      gracefulStop: '27ms',
    },
  },
};

export default function () {
  http.request(METHOD, URL, BODY, PARAMS);
}
