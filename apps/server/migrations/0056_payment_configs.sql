-- Payment configuration per tenant (spec §2 "Payment method setup: partner verification, then
-- payment provider key, then tax"; §3 "Payment config"). Control plane, like the message
-- gateways: one row per tenant, written in wizard order. The provider keys (accessKey, shareKey,
-- secretKey) and the return address are sealed together with AES-256-GCM under SECRETS_KEY
-- (lib/secret-box.ts, bound to the tenant and purpose) and never leave the server unmasked.
-- callback_key names the tenant in the address the provider notifies (random, 32 bytes, replaced
-- with every new method).
CREATE TABLE tenant_payment_configs (
  tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  partner_status text NOT NULL DEFAULT 'NOT_VERIFIED' CHECK (partner_status IN ('VERIFIED', 'NOT_VERIFIED')),
  partner_id text,
  partner_verified_at timestamptz,
  method text CHECK (method IN ('VNPAY', 'STRIPE', 'SANDBOX')),
  credentials_ciphertext text NOT NULL DEFAULT '',
  -- Stripe's publishable key: public by design (payers' browsers see it), kept in clear.
  publishable_key text NOT NULL DEFAULT '' CHECK (length(publishable_key) <= 200),
  callback_key text UNIQUE CHECK (callback_key ~ '^[A-Za-z0-9_-]{43}$'),
  method_verified_at timestamptz,
  -- Basis points: 1000 = 10 %.
  tax_rate integer CHECK (tax_rate BETWEEN 0 AND 10000),
  updated_at timestamptz NOT NULL,
  updated_by uuid,
  CHECK (partner_status = 'NOT_VERIFIED' OR (partner_id IS NOT NULL AND partner_verified_at IS NOT NULL)),
  -- The wizard's order: a method only after verification, a tax rate only with a method.
  CHECK (method IS NULL OR partner_status = 'VERIFIED'),
  CHECK (method IS NULL OR (callback_key IS NOT NULL AND method_verified_at IS NOT NULL)),
  CHECK (tax_rate IS NULL OR method IS NOT NULL)
);
GRANT SELECT, INSERT, UPDATE, DELETE ON tenant_payment_configs TO rpm_app;

-- One attempt to collect an amount through a provider: created when a payer is sent to the
-- provider, moved once from PENDING to SUCCESS or FAILED (then possibly REFUNDED) by a verified
-- callback or a reconciliation query. order_id is the reference the provider carries (VNPay's
-- vnp_TxnRef, Stripe's client_reference_id); orders and their transactions refer to it.
CREATE TABLE payment_attempts (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  method text NOT NULL CHECK (method IN ('VNPAY', 'STRIPE', 'SANDBOX')),
  order_id text NOT NULL CHECK (order_id ~ '^[A-Za-z0-9_-]{1,64}$'),
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  currency text NOT NULL CHECK (currency IN ('VND', 'USD', 'CAD')),
  description text NOT NULL CHECK (length(description) <= 255),
  return_url text NOT NULL,
  status text NOT NULL CHECK (status IN ('PENDING', 'SUCCESS', 'FAILED', 'REFUNDED')),
  -- The spec §8 result (PAYMENT_RESULTS) and the provider's own code.
  result text,
  provider_code text,
  -- Stripe: the Checkout Session, then its PaymentIntent; VNPay: vnp_TransactionNo.
  provider_reference text,
  created_by uuid,
  created_at timestamptz NOT NULL,
  completed_at timestamptz,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, method, order_id),
  CHECK (status = 'PENDING' OR completed_at IS NOT NULL)
);
CREATE INDEX payment_attempts_by_reference ON payment_attempts (tenant_id, method, provider_reference) WHERE provider_reference IS NOT NULL;

-- Every verified callback as received (the provider's signed words, no keys), once per provider
-- event: a replay finds its row and changes nothing.
CREATE TABLE payment_callbacks (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  attempt_id uuid,
  method text NOT NULL CHECK (method IN ('VNPAY', 'STRIPE', 'SANDBOX')),
  -- VNPay: IPN or RETURN with the transaction number and response code; Stripe: the event id.
  event_key text NOT NULL CHECK (length(event_key) BETWEEN 1 AND 200),
  status text NOT NULL CHECK (status IN ('PENDING', 'SUCCESS', 'FAILED', 'REFUNDED')),
  -- APPLIED: moved the attempt; IGNORED: already there, or nothing to move; REFUSED: unknown order or wrong amount.
  outcome text NOT NULL CHECK (outcome IN ('APPLIED', 'IGNORED', 'REFUSED')),
  payload jsonb NOT NULL,
  received_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, method, event_key)
);
CREATE INDEX payment_callbacks_by_attempt ON payment_callbacks (tenant_id, attempt_id, received_at);

ALTER TABLE payment_attempts ENABLE ROW LEVEL SECURITY;
ALTER TABLE payment_attempts FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON payment_attempts USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
GRANT SELECT, INSERT, UPDATE ON payment_attempts TO rpm_app;

ALTER TABLE payment_callbacks ENABLE ROW LEVEL SECURITY;
ALTER TABLE payment_callbacks FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON payment_callbacks USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
GRANT SELECT, INSERT ON payment_callbacks TO rpm_app;
