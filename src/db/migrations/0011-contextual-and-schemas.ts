import type { Migration } from './migration';

/** The contextual library (one published component per contextual slot, in the library project) and the archive
 * of published model schemas: a schema row never changes; a new version archives the current one. */
export const contextualAndSchemas: Migration = {
  id: '0011-contextual-and-schemas',
  sql: `
ALTER TABLE components ADD COLUMN contextual_slot text
  CHECK (contextual_slot IN ('audit', 'attestation', 'party', 'subject', 'provider', 'participation', 'protocol', 'workflow', 'acs'));
CREATE INDEX components_contextual_slot_idx ON components (contextual_slot) WHERE contextual_slot IS NOT NULL;

INSERT INTO components (ct_id, label, data_type, description, status, project_id, contextual_slot)
SELECT v.ct_id, v.label, v.data_type, v.description, 'published', p.id, v.slot
  FROM (VALUES
    ('fdb90dwqnbjjojiy7tadmq44', 'Audit', 'Audit', 'The system that handled the record and when (SDC4 AuditType).', 'audit'),
    ('rjvqpjzss8arwcr2i58059jr', 'Attestation', 'Attestation', 'Whether the record is committed or pending attestation, and when it was committed (SDC4 AttestationType).', 'attestation'),
    ('cbca32elvi9jkkcyvtx1dr7l', 'Party', 'Party', 'A named person, organisation or device taking part in the record (SDC4 PartyType).', 'party'),
    ('l2o3zm01ujz6q982yg21c362', 'Subject', 'Party', 'The party the record is about (SDC4 PartyType, the subject of a data model).', 'subject'),
    ('fd1515tfxz846amr3ka8ngfw', 'Provider', 'Party', 'The party that provided the information in the record (SDC4 PartyType, a provider of a data model).', 'provider'),
    ('pbarxvx6bdjnzr5l3r2crusw', 'Participation', 'Participation', 'The function a party had in producing the record and when it started (SDC4 ParticipationType).', 'participation'),
    ('wmva008s4sbazxjg98swuhcq', 'Protocol', 'XdString', 'The protocol or guideline the record was produced under (SDC4 XdStringType, the protocol of a data model).', 'protocol'),
    ('pddboj3j97s69b2po03sha7c', 'Workflow', 'XdLink', 'A link to the workflow the record belongs to (SDC4 XdLinkType, the workflow of a data model).', 'workflow'),
    ('byni6x05svyzj6mhd5ss73t9', 'Access control', 'XdLink', 'A link to the access control system that governs the record (SDC4 XdLinkType, the acs of a data model).', 'acs')
  ) AS v (ct_id, label, data_type, description, slot)
  JOIN projects p ON p.is_library
ON CONFLICT (ct_id) DO NOTHING;

CREATE TABLE published_schemas (
  id bigserial PRIMARY KEY,
  dm_ct_id text NOT NULL REFERENCES data_models(ct_id) ON DELETE CASCADE,
  sha256 text NOT NULL,
  size integer NOT NULL,
  content bytea NOT NULL,
  published_at timestamptz NOT NULL,
  archived_at timestamptz,
  UNIQUE (dm_ct_id, sha256)
);
CREATE UNIQUE INDEX published_schemas_current_idx ON published_schemas (dm_ct_id) WHERE archived_at IS NULL;

-- An imported model is served from its own package, byte for byte, never regenerated.
ALTER TABLE data_models ADD COLUMN imported boolean NOT NULL DEFAULT false;
`,
};
