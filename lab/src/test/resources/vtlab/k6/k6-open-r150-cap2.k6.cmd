env GOMAXPROCS=1 taskset -c 1 k6 run --quiet --no-color --no-usage-report --out csv=k6-open-r150-cap2.k6.csv --summary-export k6-open-r150-cap2.k6.summary.json k6-open-r150-cap2.k6.js
