extension PostgresSchema {
    /// Migration 3: the delivery history (deliveries, their events and receipts) in weekly range
    /// partitions of the delivery's `created_at` (the fan-out write time in milliseconds, ``Lifecycle/deliveriesWritten(now:messageCreated:devicesCreated:)``), so
    /// retention drops a week at a time instead of deleting row by row
    /// (docs/decisions/0006-history-partitions.md).
    ///
    /// Events and receipts carry their delivery's `created_at` (`delivery_created_at`), so a
    /// delivery and all of its history sit in partitions of the same week and go together. Every
    /// key includes the partition key, as PostgreSQL requires: a delivery is `(seq, created_at)`
    /// (its `seq` alone still never repeats: one identity for all partitions), and a receipt
    /// `(app_id, id, delivery_created_at)`: the same receipt posted twice names the same delivery,
    /// hence the same week, and is still caught. A DEFAULT partition takes what no week holds, so a
    /// write never fails. Existing rows move into the weeks they belong to.
    /// The start of the week that holds `at` (milliseconds), as `notibase_history_week` computes it.
    package static func historyWeek(_ at: Int) -> Int {
        at - (((at - 345_600_000) % 604_800_000) + 604_800_000) % 604_800_000
    }

    package static let historyByWeek = """
        -- A week is 604800000 ms; weeks start on Mondays (345600000 ms: 1970-01-05 00:00 UTC).
        CREATE FUNCTION notibase_history_week(at_ms BIGINT) RETURNS BIGINT LANGUAGE sql IMMUTABLE AS $$
            SELECT at_ms - (((at_ms - 345600000) % 604800000) + 604800000) % 604800000
        $$;

        CREATE FUNCTION notibase_make_history_partitions(from_ms BIGINT, to_ms BIGINT) RETURNS INTEGER LANGUAGE plpgsql AS $$
        DECLARE
            start BIGINT := notibase_history_week(from_ms);
            suffix TEXT;
            made INTEGER := 0;
        BEGIN
            WHILE start <= to_ms LOOP
                suffix := to_char(to_timestamp(start / 1000) AT TIME ZONE 'UTC', 'YYYYMMDD');
                -- A week whose rows already went to the DEFAULT partition stays there (PostgreSQL
                -- refuses a partition for rows the default holds); retention removes them in batches.
                -- The default is read only for a week that is missing.
                IF to_regclass('deliveries_' || suffix) IS NULL THEN
                  IF NOT EXISTS (SELECT 1 FROM deliveries_default WHERE created_at >= start AND created_at < start + 604800000) THEN
                    EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF deliveries FOR VALUES FROM (%s) TO (%s)',
                        'deliveries_' || suffix, start, start + 604800000);
                    EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF delivery_events FOR VALUES FROM (%s) TO (%s)',
                        'delivery_events_' || suffix, start, start + 604800000);
                    EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF receipts FOR VALUES FROM (%s) TO (%s)',
                        'receipts_' || suffix, start, start + 604800000);
                    made := made + 1;
                  END IF;
                END IF;
                start := start + 604800000;
            END LOOP;
            RETURN made;
        END
        $$;

        ALTER TABLE receipts RENAME TO receipts_unpartitioned;
        ALTER INDEX receipts_pkey RENAME TO receipts_unpartitioned_pkey;
        ALTER TABLE delivery_events RENAME TO delivery_events_unpartitioned;
        ALTER INDEX delivery_events_pkey RENAME TO delivery_events_unpartitioned_pkey;
        ALTER SEQUENCE delivery_events_seq_seq RENAME TO delivery_events_unpartitioned_seq_seq;
        ALTER TABLE deliveries RENAME TO deliveries_unpartitioned;
        ALTER INDEX deliveries_pkey RENAME TO deliveries_unpartitioned_pkey;
        ALTER INDEX deliveries_id_key RENAME TO deliveries_unpartitioned_id_key;
        ALTER SEQUENCE deliveries_seq_seq RENAME TO deliveries_unpartitioned_seq_seq;
        DROP INDEX deliveries_due, deliveries_message, deliveries_message_due, deliveries_device, delivery_events_delivery, receipts_delivery;

        -- The new tables take the old ones' columns as they are (LIKE), whatever migrations
        -- before this one added, and add the keys and references partitions need.
        CREATE TABLE deliveries (
            LIKE deliveries_unpartitioned INCLUDING DEFAULTS INCLUDING IDENTITY,
            PRIMARY KEY (seq, created_at),
            UNIQUE (id, created_at),
            CONSTRAINT deliveries_message_seq_fkey FOREIGN KEY (message_seq) REFERENCES messages(seq) ON DELETE CASCADE,
            CONSTRAINT deliveries_device_seq_fkey FOREIGN KEY (device_seq) REFERENCES devices(seq) ON DELETE SET NULL
        ) PARTITION BY RANGE (created_at);
        CREATE INDEX deliveries_due ON deliveries(due_at) WHERE due_at IS NOT NULL;
        CREATE INDEX deliveries_message ON deliveries(message_seq, state, platform);
        CREATE INDEX deliveries_message_due ON deliveries(message_seq, due_at) WHERE due_at IS NOT NULL;
        CREATE INDEX deliveries_device ON deliveries(device_seq);
        CREATE TABLE deliveries_default PARTITION OF deliveries DEFAULT;

        CREATE TABLE delivery_events (
            LIKE delivery_events_unpartitioned INCLUDING DEFAULTS INCLUDING IDENTITY,
            delivery_created_at BIGINT NOT NULL,
            PRIMARY KEY (seq, delivery_created_at),
            FOREIGN KEY (delivery_seq, delivery_created_at) REFERENCES deliveries(seq, created_at) ON DELETE CASCADE
        ) PARTITION BY RANGE (delivery_created_at);
        CREATE INDEX delivery_events_delivery ON delivery_events(delivery_seq);
        CREATE TABLE delivery_events_default PARTITION OF delivery_events DEFAULT;

        CREATE TABLE receipts (
            LIKE receipts_unpartitioned INCLUDING DEFAULTS,
            delivery_created_at BIGINT NOT NULL,
            PRIMARY KEY (app_id, id, delivery_created_at),
            CONSTRAINT receipts_app_id_fkey FOREIGN KEY (app_id) REFERENCES apps(id) ON DELETE CASCADE,
            FOREIGN KEY (delivery_seq, delivery_created_at) REFERENCES deliveries(seq, created_at) ON DELETE CASCADE
        ) PARTITION BY RANGE (delivery_created_at);
        CREATE INDEX receipts_delivery ON receipts(delivery_seq);
        CREATE TABLE receipts_default PARTITION OF receipts DEFAULT;

        SELECT notibase_make_history_partitions(week, week)
        FROM (SELECT DISTINCT notibase_history_week(created_at) AS week FROM deliveries_unpartitioned) AS weeks;

        INSERT INTO deliveries OVERRIDING SYSTEM VALUE SELECT * FROM deliveries_unpartitioned;
        INSERT INTO delivery_events OVERRIDING SYSTEM VALUE
        SELECT e.*, d.created_at FROM delivery_events_unpartitioned e JOIN deliveries_unpartitioned d ON d.seq = e.delivery_seq;
        INSERT INTO receipts SELECT r.*, d.created_at FROM receipts_unpartitioned r JOIN deliveries_unpartitioned d ON d.seq = r.delivery_seq;
        -- The numbers go on from where the old tables' left off: never reused.
        SELECT setval(pg_get_serial_sequence('deliveries', 'seq'), last_value, is_called) FROM deliveries_unpartitioned_seq_seq;
        SELECT setval(pg_get_serial_sequence('delivery_events', 'seq'), last_value, is_called) FROM delivery_events_unpartitioned_seq_seq;
        DROP TABLE receipts_unpartitioned, delivery_events_unpartitioned, deliveries_unpartitioned;

        -- Retention asks which messages still hold a week: those not finished, through this.
        CREATE INDEX messages_unfinished ON messages(created_at) WHERE finished_at IS NULL;
        """

    /// Migration 5: `notibase_analyze_history(at)` analyzes the deliveries partition that holds
    /// `at` when the planner has no statistics of its columns yet, and says whether it did.
    ///
    /// A week's partition is made empty, ahead of time, and an ANALYZE of an empty table (a
    /// routine `VACUUM ANALYZE`) leaves no statistics of its columns. Until autovacuum's first
    /// visit after its rows arrive (a minute at least, `autovacuum_naptime`), the planner takes a batch's
    /// `seq = ANY(...)` to match most of the table: recording a batch and reading the claimed ones
    /// became hash joins over every row of the week, a cost that grew with each batch written. The
    /// fan-out calls this after each batch it commits; once the week has statistics (`seq` is
    /// unique: they scale as the week grows) the call is a catalogue lookup and nothing more.
    package static let historyStatistics = """
        CREATE FUNCTION notibase_analyze_history(at_ms BIGINT) RETURNS BOOLEAN LANGUAGE plpgsql AS $$
        DECLARE
            week REGCLASS := coalesce(
                to_regclass('deliveries_' || to_char(to_timestamp(notibase_history_week(at_ms) / 1000) AT TIME ZONE 'UTC', 'YYYYMMDD')),
                to_regclass('deliveries_default'));
        BEGIN
            IF week IS NULL OR EXISTS (
                SELECT 1 FROM pg_stats s JOIN pg_class c ON c.relname = s.tablename JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = s.schemaname
                WHERE c.oid = week AND s.attname = 'seq') THEN
                RETURN false;
            END IF;
            EXECUTE format('ANALYZE %s', week);
            RETURN true;
        END
        $$;
        """
}
