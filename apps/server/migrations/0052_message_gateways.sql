-- SMS and voice gateways per tenant (spec §1 SOS calls and SMS, §3 SMS or call: provider,
-- status). A tenant chooses the gateway of each channel; without a row it uses the server's
-- default (SMS_PROVIDER, the local recorder). The gateway's credentials are sealed with
-- AES-256-GCM under SECRETS_KEY (lib/secret-box.ts, bound to the tenant and channel) and never
-- leave the server. callback_key names the tenant in the delivery-receipt address the gateway
-- calls back; with no signature from eSMS it is the receipt's only proof, so it is random
-- (32 bytes) and replaced whenever the gateway is.
CREATE TABLE tenant_message_gateways (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  channel text NOT NULL CHECK (channel IN ('SMS', 'CALL')),
  provider text NOT NULL CHECK (provider IN ('local', 'twilio', 'esms')),
  -- The number calls and SMS come from (E.164), or the registered brand name (eSMS).
  sender text NOT NULL DEFAULT '' CHECK (length(sender) <= 32),
  credentials_ciphertext text NOT NULL DEFAULT '',
  callback_key text NOT NULL UNIQUE CHECK (callback_key ~ '^[A-Za-z0-9_-]{43}$'),
  updated_at timestamptz NOT NULL,
  updated_by uuid,
  PRIMARY KEY (tenant_id, channel),
  CHECK (channel = 'SMS' OR provider IN ('local', 'twilio'))
);
GRANT SELECT, INSERT, UPDATE, DELETE ON tenant_message_gateways TO rpm_app;

-- Delivery receipts: an SMS the gateway accepted (SENT) becomes DELIVERED or UNDELIVERED when
-- the gateway reports back.
ALTER TABLE outbox_messages DROP CONSTRAINT outbox_messages_status_check;
ALTER TABLE outbox_messages ADD CONSTRAINT outbox_messages_status_check
  CHECK (status IN ('PENDING', 'SENT', 'FAILED', 'DELIVERED', 'UNDELIVERED'));
ALTER TABLE outbox_messages ADD COLUMN delivered_at timestamptz;
CREATE INDEX outbox_messages_by_provider_id ON outbox_messages (tenant_id, provider_message_id) WHERE provider_message_id IS NOT NULL;

-- Calls a gateway places and reports on later: PLACED (handed over, ringing), ANSWERED (picked
-- up, in progress), then COMPLETED, NO_ANSWER, BUSY or FAILED.
ALTER TABLE calls DROP CONSTRAINT calls_status_check;
ALTER TABLE calls ADD CONSTRAINT calls_status_check
  CHECK (status IN ('PENDING', 'PLACED', 'ANSWERED', 'COMPLETED', 'NO_ANSWER', 'BUSY', 'FAILED'));
ALTER TABLE calls ADD COLUMN answered_at timestamptz;
CREATE INDEX calls_by_provider_id ON calls (tenant_id, provider_call_id) WHERE provider_call_id IS NOT NULL;
CREATE INDEX calls_by_sos_case ON calls (tenant_id, sos_case_id) WHERE sos_case_id IS NOT NULL;
