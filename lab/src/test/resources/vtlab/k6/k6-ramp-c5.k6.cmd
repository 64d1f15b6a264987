env GOMAXPROCS=1 taskset -c 1 k6 run --quiet --no-color --no-usage-report --out csv=k6-ramp-c5.k6.csv --summary-export k6-ramp-c5.k6.summary.json k6-ramp-c5.k6.js
