import type { Migration } from '@libs/db';
import { IDEMPOTENCY_KEYS_TABLE } from '@libs/idempotency';
import { OUTBOX_TABLES } from '@libs/outbox';

export const m0001Scheduling: Migration = {
  name: '0001-scheduling',
  async up({ context }) {
    await context.sequelize.query(`
      CREATE EXTENSION IF NOT EXISTS btree_gist;

      -- A premise of the reference service where booking is enabled; same id. The zone is an IANA name.
      CREATE TABLE locations (
        premise_id text PRIMARY KEY CHECK (premise_id ~ '^[1-9][0-9]{0,17}$'),
        name       text NOT NULL,
        time_zone  text NOT NULL,
        version    integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );

      -- An appointment type with its policy (docs/SCHEDULING.md, "Policies").
      CREATE TABLE services (
        id                        uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name                      text NOT NULL,
        duration_minutes          integer NOT NULL CHECK (duration_minutes > 0),
        slot_step_minutes         integer NOT NULL CHECK (slot_step_minutes > 0),
        buffer_before_minutes     integer NOT NULL DEFAULT 0 CHECK (buffer_before_minutes >= 0),
        buffer_after_minutes      integer NOT NULL DEFAULT 0 CHECK (buffer_after_minutes >= 0),
        policy                    jsonb NOT NULL,
        active                    boolean NOT NULL DEFAULT true,
        version                   integer NOT NULL DEFAULT 1,
        created_at                timestamptz NOT NULL DEFAULT now(),
        updated_at                timestamptz NOT NULL DEFAULT now()
      );

      -- A practitioner or room. Its schedule has its id: weekly windows and date overrides, local wall-clock
      -- times of the location's zone (never UTC); rules_version is the schedule's version.
      CREATE TABLE resources (
        id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        location_id   text NOT NULL REFERENCES locations (premise_id),
        kind          text NOT NULL CHECK (kind IN ('practitioner', 'room')),
        name          text NOT NULL,
        active        boolean NOT NULL DEFAULT true,
        version       integer NOT NULL DEFAULT 1,
        rules_version integer NOT NULL DEFAULT 1,
        created_at    timestamptz NOT NULL DEFAULT now(),
        updated_at    timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX resources_by_location ON resources (location_id, id);

      CREATE TABLE resource_services (
        resource_id uuid NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
        service_id  uuid NOT NULL REFERENCES services (id),
        PRIMARY KEY (resource_id, service_id)
      );

      -- Which users (clinicians) staff which resources: what they may manage and see.
      CREATE TABLE staffing (
        resource_id uuid NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
        user_id     text NOT NULL,
        PRIMARY KEY (resource_id, user_id)
      );
      CREATE INDEX staffing_by_user ON staffing (user_id, resource_id);

      CREATE TABLE weekly_windows (
        resource_id uuid NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
        weekday     smallint NOT NULL CHECK (weekday BETWEEN 1 AND 7),
        start_time  time NOT NULL,
        end_time    time NOT NULL CHECK (end_time > start_time),
        PRIMARY KEY (resource_id, weekday, start_time)
      );

      -- Other hours (windows: [{start, end}] as "HH:MM") or closed on one local date.
      CREATE TABLE date_overrides (
        resource_id uuid NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
        local_date  date NOT NULL,
        closed      boolean NOT NULL,
        windows     jsonb NOT NULL DEFAULT '[]',
        version     integer NOT NULL DEFAULT 1,
        PRIMARY KEY (resource_id, local_date)
      );

      -- span: the appointment's time (without buffers), as an instant range; time_zone: the location's zone
      -- when it was made. policy: the service's policy then, whose rules apply to it.
      CREATE TABLE appointments (
        id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        location_id        text NOT NULL REFERENCES locations (premise_id),
        resource_id        uuid NOT NULL REFERENCES resources (id),
        service_id         uuid NOT NULL REFERENCES services (id),
        student_id         text NOT NULL,
        status             text NOT NULL CHECK (status IN ('held', 'booked', 'checked_in', 'fulfilled', 'noshow', 'cancelled', 'entered_in_error')),
        span               tstzrange NOT NULL CHECK (NOT isempty(span)),
        time_zone          text NOT NULL,
        hold_expires_at    timestamptz,
        policy             jsonb NOT NULL,
        version            integer NOT NULL DEFAULT 1,
        sequence           integer NOT NULL DEFAULT 0,
        booked_by          text NOT NULL,
        cancel_reason_code text,
        cancel_reason_text text,
        cancelled_by       text,
        cancelled_by_role  text,
        cancelled_late     boolean,
        cancelled_at       timestamptz,
        checked_in_at      timestamptz,
        completed_at       timestamptz,
        no_show_at         timestamptz,
        error_reason       text,
        created_at         timestamptz NOT NULL DEFAULT now(),
        updated_at         timestamptz NOT NULL DEFAULT now(),
        CHECK ((status = 'held') = (hold_expires_at IS NOT NULL))
      );
      CREATE INDEX appointments_by_start ON appointments (lower(span), id);
      CREATE INDEX appointments_by_student ON appointments (student_id, lower(span), id);
      CREATE INDEX appointments_by_resource ON appointments (resource_id, lower(span), id);
      CREATE INDEX appointments_holds ON appointments (hold_expires_at) WHERE status = 'held';

      -- One row per change of an appointment, written with the change.
      CREATE TABLE appointment_history (
        appointment_id uuid NOT NULL REFERENCES appointments (id),
        version        integer NOT NULL,
        sequence       integer NOT NULL,
        action         text NOT NULL,
        status         text NOT NULL,
        span           tstzrange NOT NULL,
        actor_id       text NOT NULL,
        actor_role     text NOT NULL,
        reason_code    text,
        late           boolean NOT NULL DEFAULT false,
        at             timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (appointment_id, version)
      );

      CREATE TABLE blocks (
        id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        resource_id uuid NOT NULL REFERENCES resources (id),
        span        tstzrange NOT NULL CHECK (NOT isempty(span)),
        time_zone   text NOT NULL,
        reason      text NOT NULL DEFAULT '',
        created_by  text NOT NULL,
        active      boolean NOT NULL DEFAULT true,
        version     integer NOT NULL DEFAULT 1,
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX blocks_by_resource ON blocks (resource_id, lower(span), id) WHERE active;

      -- Every time a resource has taken: holds, bookings (buffers included in occupied) and blocks. The
      -- database, not the application, stops double booking: no two active rows of a resource overlap, and no
      -- student is in two places at once. A hold past its expiry stays active until someone reclaims it (the
      -- next booker, in its own transaction, or the sweeper).
      CREATE TABLE allocation (
        id             bigserial PRIMARY KEY,
        resource_id    uuid NOT NULL REFERENCES resources (id),
        appointment_id uuid UNIQUE REFERENCES appointments (id),
        block_id       uuid UNIQUE REFERENCES blocks (id),
        student_id     text,
        span           tstzrange NOT NULL,
        occupied       tstzrange NOT NULL CHECK (occupied @> span),
        active         boolean NOT NULL DEFAULT true,
        CHECK ((appointment_id IS NULL) <> (block_id IS NULL)),
        CONSTRAINT allocation_resource_free EXCLUDE USING gist (resource_id WITH =, occupied WITH &&) WHERE (active),
        CONSTRAINT allocation_student_free EXCLUDE USING gist (student_id WITH =, span WITH &&) WHERE (active AND student_id IS NOT NULL)
      );

      ${IDEMPOTENCY_KEYS_TABLE}
      ${OUTBOX_TABLES}
    `);
  },
  async down({ context }) {
    await context.sequelize.query(`
      DROP TABLE outbox_queue_watch; DROP TABLE outbox; DROP TABLE idempotency_keys; DROP TABLE allocation;
      DROP TABLE blocks; DROP TABLE appointment_history; DROP TABLE appointments; DROP TABLE date_overrides;
      DROP TABLE weekly_windows; DROP TABLE staffing; DROP TABLE resource_services; DROP TABLE resources;
      DROP TABLE services; DROP TABLE locations;
    `);
  },
};
