import { useState } from 'preact/hooks';

import type { EffectiveConfig, RuntimeConfigPatch } from '../../../src/client';
import { ErrorBox, Loading, Notice, PageTitle, TableBox, useLoad } from '../components';
import { useInspector } from '../inspector-context';
import { describeError } from '../session';

type NumberField =
  'maxSearchResults' | 'lessonSimilarityThreshold' | 'trustScoreMinThreshold' | 'audnCandidateThreshold' | 'duplicateThreshold';
type BooleanField = 'lessonsEnabled' | 'trustScoringEnabled';

const NUMBER_FIELDS: { name: NumberField; label: string; step: string }[] = [
  { name: 'maxSearchResults', label: 'Max search results', step: '1' },
  { name: 'lessonSimilarityThreshold', label: 'Lesson similarity threshold', step: '0.01' },
  { name: 'trustScoreMinThreshold', label: 'Trust score minimum', step: '0.01' },
  { name: 'audnCandidateThreshold', label: 'Ingest candidate threshold', step: '0.01' },
  { name: 'duplicateThreshold', label: 'Duplicate threshold', step: '0.01' },
];
const BOOLEAN_FIELDS: { name: BooleanField; label: string }[] = [
  { name: 'lessonsEnabled', label: 'Lessons enabled' },
  { name: 'trustScoringEnabled', label: 'Trust scoring enabled' },
];

const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The effective runtime config (GET /v1/memories/health). It can be edited only when the
 * service allows it: CORE_RUNTIME_CONFIG_MUTATION_ENABLED on, and with AUTH_MODE=api_key the
 * admin token (the service checks both; the page just does not offer what would be refused).
 */
export function ConfigPage() {
  const { client, can, session } = useInspector();
  const [health, reload] = useLoad(can.memories ? () => client.memoriesHealth() : null, [client]);
  // Kept here: the form is made anew from the config that the reload after a change reads.
  const [applied, setApplied] = useState<string | null>(null);
  const editable =
    health.state === 'done' && health.value.config.runtimeConfigMutationEnabled === true && (session.authMode === 'off' || can.admin);

  return (
    <section>
      <PageTitle>Runtime config</PageTitle>
      {!can.memories ? <Notice>Reading the config needs an API key in AUTH_MODE=api_key (GET /v1/memories/health).</Notice> : null}
      <p role="status" class="muted">
        {applied}
      </p>
      <Loading load={health} label="the config" />
      {health.state === 'done' ? (
        <>
          <TableBox label="Effective config">
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody data-testid="config-table">
              {Object.entries(health.value.config).map(([name, value]) => (
                <tr key={name}>
                  <th scope="row" class="mono">
                    {snake(name)}
                  </th>
                  <td class="mono">{JSON.stringify(value)}</td>
                </tr>
              ))}
            </tbody>
          </TableBox>
          {editable ? (
            <ConfigForm
              config={health.value.config}
              onApplied={(message) => {
                setApplied(message);
                reload();
              }}
            />
          ) : (
            <p class="muted" data-testid="config-readonly">
              {health.value.config.runtimeConfigMutationEnabled
                ? 'Changing the config needs the admin token in AUTH_MODE=api_key.'
                : 'Read only: this service does not allow runtime config changes (CORE_RUNTIME_CONFIG_MUTATION_ENABLED is off).'}
            </p>
          )}
        </>
      ) : null}
    </section>
  );
}

function ConfigForm(props: { config: EffectiveConfig; onApplied: (message: string) => void }) {
  const { client } = useInspector();
  const initial = Object.fromEntries([
    ...NUMBER_FIELDS.map((f) => [f.name, String(props.config[f.name])]),
    ...BOOLEAN_FIELDS.map((f) => [f.name, String(props.config[f.name])]),
  ]) as Record<NumberField | BooleanField, string>;
  const [form, setForm] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setStatus(null);
    const patch: RuntimeConfigPatch = {};
    for (const f of NUMBER_FIELDS) if (form[f.name] !== initial[f.name]) patch[f.name] = Number(form[f.name]);
    for (const f of BOOLEAN_FIELDS) if (form[f.name] !== initial[f.name]) patch[f.name] = form[f.name] === 'true';
    if (Object.keys(patch).length === 0) return setStatus('Nothing changed.');
    try {
      const result = await client.updateConfig(patch);
      props.onApplied(`Applied: ${result.applied.map(snake).join(', ')}.`);
    } catch (caught) {
      setError(describeError(caught));
    }
  };

  return (
    <form class="panel" onSubmit={submit} aria-labelledby="config-edit-title">
      <h2 id="config-edit-title">Change</h2>
      <div class="inline">
        {NUMBER_FIELDS.map((f) => (
          <div class="field" key={f.name}>
            <label for={`config-${f.name}`}>{f.label}</label>
            <input
              id={`config-${f.name}`}
              type="number"
              step={f.step}
              value={form[f.name]}
              onInput={(event) => setForm({ ...form, [f.name]: (event.currentTarget as HTMLInputElement).value })}
            />
          </div>
        ))}
        {BOOLEAN_FIELDS.map((f) => (
          <div class="check" key={f.name}>
            <input
              id={`config-${f.name}`}
              type="checkbox"
              checked={form[f.name] === 'true'}
              onChange={(event) => setForm({ ...form, [f.name]: String((event.currentTarget as HTMLInputElement).checked) })}
            />
            <label for={`config-${f.name}`}>{f.label}</label>
          </div>
        ))}
      </div>
      <button type="submit">Apply</button>
      <ErrorBox error={error} />
      <p role="status" class="muted">
        {status}
      </p>
      <p class="muted">Every instance applies a change within a second; it is recorded in the audit log.</p>
    </form>
  );
}
