-- Orders, coupons and CDR files (spec §1 transactions and exports; §2 checkout, payment result,
-- transaction control and order history with export (CDR and Excel); §3 Transaction or order; §4
-- web statuses). Money: integer minor units with the currency, as computed once by priceCart
-- (@rpm/contracts orders.ts) and stored as computed.

-- A tenant's discount codes. PERCENT: value in basis points; AMOUNT: minor units of its currency.
CREATE TABLE coupons (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  code text NOT NULL CHECK (code ~ '^[A-Z0-9_-]{3,32}$'),
  kind text NOT NULL CHECK (kind IN ('PERCENT', 'AMOUNT')),
  value bigint NOT NULL CHECK (value > 0),
  currency text CHECK (currency IN ('VND', 'USD', 'CAD')),
  valid_from timestamptz NOT NULL,
  valid_to timestamptz NOT NULL,
  max_uses integer NOT NULL CHECK (max_uses = -1 OR max_uses > 0),
  -- Orders holding the coupon that are not FAILED (a failed payment gives its use back).
  used_count integer NOT NULL DEFAULT 0 CHECK (used_count >= 0 AND (max_uses = -1 OR used_count <= max_uses)),
  enabled boolean NOT NULL DEFAULT true,
  created_by uuid,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, code),
  CHECK (kind <> 'PERCENT' OR value <= 10000),
  CHECK (kind <> 'AMOUNT' OR currency IS NOT NULL),
  CHECK (valid_to > valid_from)
);

-- One order: what a patient buys, its figures, and what became of its payment. code is the
-- reference the provider carries (payment_attempts.order_id). TIMEOUT is not final: a provider
-- that took the money late still says so, and the order is then paid and fulfilled.
CREATE TABLE orders (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  code text NOT NULL CHECK (code ~ '^[A-Za-z0-9_-]{1,64}$'),
  patient_id uuid NOT NULL,
  customer_name text NOT NULL,
  customer_phone text NOT NULL DEFAULT '',
  package_name text NOT NULL,
  type text NOT NULL CHECK (type IN ('SERVICE_PACKAGE', 'COUPON')),
  status text NOT NULL CHECK (status IN ('PENDING', 'SUCCESS', 'FAILED', 'REFUNDED', 'TIMEOUT')),
  currency text NOT NULL CHECK (currency IN ('VND', 'USD', 'CAD')),
  subtotal_minor bigint NOT NULL CHECK (subtotal_minor >= 0),
  discount_minor bigint NOT NULL CHECK (discount_minor >= 0 AND discount_minor <= subtotal_minor),
  tax_rate integer NOT NULL CHECK (tax_rate BETWEEN 0 AND 10000),
  tax_minor bigint NOT NULL CHECK (tax_minor >= 0),
  total_minor bigint NOT NULL CHECK (total_minor = subtotal_minor - discount_minor + tax_minor),
  coupon_id uuid,
  coupon_code text,
  -- The provider; none for an order a coupon paid in full.
  method text CHECK (method IN ('VNPAY', 'STRIPE', 'SANDBOX')),
  purchase_channel text NOT NULL CHECK (purchase_channel IN ('APP', 'WEB')),
  retail_channel text NOT NULL CHECK (retail_channel IN ('DIRECT', 'PARTNER')),
  provider_reference text,
  -- Spec §8 result of the payment (the response message is its translation).
  result text,
  fulfilment text NOT NULL DEFAULT 'PENDING' CHECK (fulfilment IN ('PENDING', 'DONE', 'FAILED')),
  fulfilment_error text,
  refunded_minor bigint NOT NULL DEFAULT 0 CHECK (refunded_minor >= 0 AND refunded_minor <= total_minor),
  refund_reason text CHECK (length(refund_reason) <= 500),
  refunded_at timestamptz,
  refunded_by uuid,
  created_by uuid,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  completed_at timestamptz,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, code),
  CHECK ((type = 'COUPON') = (method IS NULL)),
  CHECK (type <> 'COUPON' OR total_minor = 0),
  CHECK (status IN ('PENDING', 'TIMEOUT') OR completed_at IS NOT NULL),
  CHECK ((status = 'REFUNDED') = (refunded_at IS NOT NULL))
);
CREATE INDEX orders_by_created ON orders (tenant_id, created_at DESC, id);
CREATE INDEX orders_by_patient ON orders (tenant_id, patient_id, created_at DESC);
-- The reconciliation job's worklist.
CREATE INDEX orders_open ON orders (tenant_id, created_at) WHERE status IN ('PENDING', 'TIMEOUT');

CREATE TABLE order_items (
  tenant_id uuid NOT NULL,
  order_id uuid NOT NULL,
  line integer NOT NULL CHECK (line BETWEEN 1 AND 5),
  package_id uuid,
  product_id text NOT NULL,
  name text NOT NULL,
  category text NOT NULL CHECK (category IN ('PACKAGE', 'ADDON')),
  unit_minor bigint NOT NULL CHECK (unit_minor >= 0),
  quantity integer NOT NULL CHECK (quantity > 0),
  discount_minor bigint NOT NULL CHECK (discount_minor >= 0),
  amount_minor bigint NOT NULL CHECK (amount_minor = unit_minor * quantity - discount_minor),
  PRIMARY KEY (tenant_id, order_id, line),
  FOREIGN KEY (tenant_id, order_id) REFERENCES orders (tenant_id, id) ON DELETE CASCADE
);

-- The daily call detail record: one file per tenant and local day, written by the job at 00:00
-- tenant time, kept for download.
CREATE TABLE cdr_files (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  day date NOT NULL,
  file_name text NOT NULL,
  rows integer NOT NULL CHECK (rows >= 0),
  content bytea NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, day)
);

DO $$
DECLARE order_table text;
BEGIN
  FOREACH order_table IN ARRAY ARRAY['coupons', 'orders', 'order_items', 'cdr_files'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', order_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', order_table);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant())', order_table);
  END LOOP;
END $$;
-- Staff see the orders of the patients they see; a patient its own (the patients policy says
-- which); followers none (what a patient pays for is its own business).
CREATE POLICY center_visibility ON orders AS RESTRICTIVE
  USING (EXISTS (SELECT 1 FROM patients visible WHERE visible.tenant_id = orders.tenant_id AND visible.id = orders.patient_id));
CREATE POLICY not_followers ON orders AS RESTRICTIVE
  USING ((SELECT NOT EXISTS (SELECT 1 FROM app_subject_followed()))
         OR patient_id NOT IN (SELECT followed.patient_id FROM app_subject_followed() followed));
CREATE POLICY of_visible_orders ON order_items AS RESTRICTIVE
  USING (EXISTS (SELECT 1 FROM orders visible WHERE visible.tenant_id = order_items.tenant_id AND visible.id = order_items.order_id));
-- Coupons and CDR files are staff business (checkout reads a coupon as the tenant, after checking
-- the patient's own record).
CREATE POLICY staff_only ON coupons AS RESTRICTIVE
  USING (current_setting('app.subject', true) IS DISTINCT FROM 'patient');
CREATE POLICY staff_only ON cdr_files AS RESTRICTIVE
  USING (current_setting('app.subject', true) IS DISTINCT FROM 'patient');
GRANT SELECT, INSERT, UPDATE ON coupons, orders TO rpm_app;
GRANT SELECT, INSERT ON order_items, cdr_files TO rpm_app;
