-- +goose Up
-- Tickets held by pending orders; sold + held never exceeds capacity.
ALTER TABLE ticket_types ADD COLUMN held INTEGER NOT NULL DEFAULT 0 CHECK (held >= 0);

CREATE TABLE promo_codes (
    id          INTEGER PRIMARY KEY,
    code        TEXT NOT NULL UNIQUE COLLATE NOCASE,
    event_id    INTEGER REFERENCES events (id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('percent', 'fixed')),
    percent     INTEGER NOT NULL DEFAULT 0 CHECK (percent BETWEEN 0 AND 100),
    amount      INTEGER NOT NULL DEFAULT 0 CHECK (amount >= 0),
    valid_from  TEXT,
    valid_until TEXT,
    usage_limit INTEGER NOT NULL DEFAULT 0 CHECK (usage_limit >= 0),
    used        INTEGER NOT NULL DEFAULT 0 CHECK (used >= 0),
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE orders (
    id              INTEGER PRIMARY KEY,
    public_id       TEXT NOT NULL UNIQUE,
    kind            TEXT NOT NULL DEFAULT 'tickets' CHECK (kind IN ('tickets', 'add_ons')),
    event_id        INTEGER NOT NULL REFERENCES events (id),
    ticket_type_id  INTEGER NOT NULL REFERENCES ticket_types (id),
    ticket_id       INTEGER REFERENCES tickets (id),
    quantity        INTEGER NOT NULL CHECK (quantity >= 0),
    email           TEXT NOT NULL,
    buyer           TEXT NOT NULL DEFAULT '{}',
    seats           TEXT NOT NULL DEFAULT '[]',
    source          TEXT NOT NULL DEFAULT '',
    promo_code_id   INTEGER REFERENCES promo_codes (id),
    payment_type    TEXT NOT NULL DEFAULT '',
    unit_price      INTEGER NOT NULL CHECK (unit_price >= 0),
    add_ons_total   INTEGER NOT NULL DEFAULT 0 CHECK (add_ons_total >= 0),
    promo_discount  INTEGER NOT NULL DEFAULT 0 CHECK (promo_discount >= 0),
    total           INTEGER NOT NULL CHECK (total >= 0),
    status          TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'expired', 'refund')),
    provider        TEXT NOT NULL DEFAULT '',
    provider_ref    TEXT NOT NULL DEFAULT '',
    checkout_url    TEXT NOT NULL DEFAULT '',
    hold_expires_at TEXT,
    paid_at         TEXT,
    created_at      TEXT NOT NULL
);
CREATE INDEX orders_status_hold ON orders (status, hold_expires_at);
CREATE INDEX orders_provider_ref ON orders (provider, provider_ref);
CREATE INDEX orders_email ON orders (email);

CREATE TABLE order_add_ons (
    order_id  INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    add_on_id INTEGER NOT NULL REFERENCES add_ons (id),
    price     INTEGER NOT NULL CHECK (price >= 0),
    PRIMARY KEY (order_id, add_on_id)
);

CREATE TABLE tickets (
    id             INTEGER PRIMARY KEY,
    public_id      TEXT NOT NULL UNIQUE,
    code           TEXT NOT NULL UNIQUE,
    order_id       INTEGER NOT NULL REFERENCES orders (id),
    event_id       INTEGER NOT NULL REFERENCES events (id),
    ticket_type_id INTEGER NOT NULL REFERENCES ticket_types (id),
    holder_name    TEXT NOT NULL DEFAULT '',
    email          TEXT NOT NULL,
    seat           TEXT NOT NULL DEFAULT '',
    status         TEXT NOT NULL DEFAULT 'valid' CHECK (status IN ('valid', 'checked_in', 'cancelled')),
    checked_in_at  TEXT,
    created_at     TEXT NOT NULL
);
CREATE INDEX tickets_email ON tickets (email);
CREATE INDEX tickets_order ON tickets (order_id);

-- Add-ons a ticket holds: bought with its order or later for the ticket.
CREATE TABLE ticket_add_ons (
    ticket_id INTEGER NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
    add_on_id INTEGER NOT NULL REFERENCES add_ons (id),
    order_id  INTEGER NOT NULL REFERENCES orders (id),
    PRIMARY KEY (ticket_id, add_on_id)
);

-- Messages to send, written in the transaction that causes them; channel 'sms' comes later.
CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY,
    channel         TEXT NOT NULL DEFAULT 'email' CHECK (channel IN ('email', 'sms')),
    kind            TEXT NOT NULL,
    recipient       TEXT NOT NULL,
    subject         TEXT NOT NULL DEFAULT '',
    body_text       TEXT NOT NULL,
    body_html       TEXT NOT NULL DEFAULT '',
    dedupe_key      TEXT UNIQUE,
    status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    last_error      TEXT NOT NULL DEFAULT '',
    next_attempt_at TEXT NOT NULL,
    claimed_until   TEXT,
    created_at      TEXT NOT NULL,
    sent_at         TEXT
);
CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
CREATE INDEX outbox_recipient ON outbox (recipient);

-- Payment provider events already applied, so a redelivered webhook changes nothing.
CREATE TABLE payment_events (
    provider    TEXT NOT NULL,
    event_id    TEXT NOT NULL,
    order_id    INTEGER REFERENCES orders (id),
    status      TEXT NOT NULL,
    received_at TEXT NOT NULL,
    PRIMARY KEY (provider, event_id)
);

-- One-time or expiring tokens sent by e-mail (stored hashed): e-mail change and tickets links.
CREATE TABLE link_tokens (
    token_hash TEXT PRIMARY KEY,
    purpose    TEXT NOT NULL CHECK (purpose IN ('email_change', 'tickets')),
    ticket_id  INTEGER REFERENCES tickets (id) ON DELETE CASCADE,
    email      TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at    TEXT,
    created_at TEXT NOT NULL
);

-- +goose Down
DROP TABLE link_tokens;
DROP TABLE payment_events;
DROP TABLE outbox;
DROP TABLE ticket_add_ons;
DROP TABLE tickets;
DROP TABLE order_add_ons;
DROP TABLE orders;
DROP TABLE promo_codes;
ALTER TABLE ticket_types DROP COLUMN held;
