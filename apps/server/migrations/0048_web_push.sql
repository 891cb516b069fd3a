-- Web Push (spec §7 push/key, push/subscribe, push/unsubscribe): a browser's push subscription
-- for an account (its endpoint on the browser vendor's push service and the keys that encrypt
-- each payload to it, RFC 8291). Notices are pushed through the outbox (channel PUSH, recipient =
-- the subscription's id) with its retries; a subscription the push service says is gone (404/410)
-- is deleted.
CREATE TABLE push_subscriptions (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  user_id uuid NOT NULL,
  endpoint text NOT NULL CHECK (endpoint ~ '^https?://' AND length(endpoint) <= 1000),
  p256dh text NOT NULL CHECK (p256dh ~ '^[A-Za-z0-9_-]{87}$'),
  auth text NOT NULL CHECK (auth ~ '^[A-Za-z0-9_-]{22}$'),
  user_agent text CHECK (length(user_agent) <= 300),
  created_at timestamptz NOT NULL,
  last_sent_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);
-- One subscription per endpoint in a tenant: subscribing again moves it to the account signed in.
CREATE UNIQUE INDEX push_subscriptions_endpoint ON push_subscriptions (tenant_id, endpoint);
CREATE INDEX push_subscriptions_by_user ON push_subscriptions (tenant_id, user_id);

ALTER TABLE push_subscriptions ENABLE ROW LEVEL SECURITY;
ALTER TABLE push_subscriptions FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON push_subscriptions USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
GRANT SELECT, INSERT, UPDATE, DELETE ON push_subscriptions TO rpm_app;

ALTER TABLE outbox_messages DROP CONSTRAINT outbox_messages_channel_check;
ALTER TABLE outbox_messages ADD CONSTRAINT outbox_messages_channel_check CHECK (channel IN ('EMAIL', 'SMS', 'PUSH'));
