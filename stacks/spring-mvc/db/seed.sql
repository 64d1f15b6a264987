-- Customers and orders from generate_series, sized by the placeholders customers and orders (stack.json
-- data.sizes; tier options pg.customers / pg.orders override them). Every order's customer exists:
-- 1 + (g * 7919) % customers lies in 1..customers.
INSERT INTO customers SELECT g, 'Customer ' || g, 'customer' || g || '@example.com',
    (ARRAY['bronze','silver','gold'])[1 + g % 3], timestamptz '2024-01-01' + (g % 1000) * interval '1 day'
    FROM generate_series(1, {customers}::bigint) g;
INSERT INTO orders SELECT g, 1 + (g * 7919) % {customers},
    (ARRAY['NEW','PAID','SHIPPED','DELIVERED','CANCELLED'])[1 + g % 5], 100 + (g * 37) % 100000,
    timestamptz '2024-01-01' + (g % 525600) * interval '1 minute'
    FROM generate_series(1, {orders}::bigint) g;
ALTER TABLE customers ADD PRIMARY KEY (id);
ALTER TABLE orders ADD PRIMARY KEY (id);
ALTER TABLE orders ADD FOREIGN KEY (customer_id) REFERENCES customers (id);
CREATE INDEX orders_customer_id ON orders (customer_id);
