-- spring-mvc's tables, as in the seed rig. No keys or indexes yet: seed.sql adds them after loading (faster than
-- loading into indexed tables). Applied with seed.sql in one transaction when the data is (re)built.
DROP TABLE IF EXISTS orders, customers;
CREATE TABLE customers (id bigint NOT NULL, name text NOT NULL, email text NOT NULL, tier text NOT NULL,
    created_at timestamptz NOT NULL);
CREATE TABLE orders (id bigint NOT NULL, customer_id bigint NOT NULL, status text NOT NULL,
    total_cents bigint NOT NULL, created_at timestamptz NOT NULL);
