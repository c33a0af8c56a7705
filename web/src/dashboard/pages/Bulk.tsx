/**
 * Bulk CSV upload (POST /v1/posts/bulk-upload): pick a file, check it with a dry run (a table of
 * every row with its errors, nothing created), then create the valid rows' posts. A template
 * with every column the server reads can be downloaded.
 */
import { useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { postForm, type Paths } from '../api.ts';
import { ErrorBox, PageTitle } from '../components.tsx';
import { BULK_COLUMNS, bulkCsvTemplate } from '../../../../src/shared/bulk-columns.ts';
import { useProfiles } from '../queries/profiles.ts';
import { useAccounts } from '../queries/accounts.ts';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type BulkResult = Json<Paths['/v1/posts/bulk-upload']['post']['responses'][200]>;

function send(file: File, dryRun: boolean): Promise<BulkResult> {
  const form = new FormData();
  form.append('file', file, file.name);
  // postForm, not the typed client: a multipart CSV upload whose 400 answer still carries the per-row results.
  return postForm<BulkResult>(`/v1/posts/bulk-upload?dryRun=${dryRun}`, form, (b) => Array.isArray((b as { results?: unknown }).results)).then((r) => r.body);
}

function Results({ r }: { r: BulkResult }) {
  return (
    <section className="card" aria-labelledby="bulk-results">
      <h2 id="bulk-results" className="small-title">{r.dryRun ? 'Dry run: nothing was created' : 'Created'}</h2>
      <p role="status"><strong>{r.valid}</strong> of {r.total} row(s) {r.dryRun ? 'can be created' : 'created'}; <strong>{r.invalid}</strong> with errors.</p>
      {r.warnings.length > 0 && <ul className="muted small">{r.warnings.map((w) => <li key={w}>{w}</li>)}</ul>}
      <div className="table-wrap">
        <table className="bulk-table">
          <thead><tr><th scope="col">Row</th><th scope="col">Result</th><th scope="col">Errors</th></tr></thead>
          <tbody>
            {r.results.map((row) => (
              <tr key={row.rowIndex} className={row.ok ? 'row-ok' : 'row-bad'}>
                <td>{row.rowIndex}</td>
                <td>{row.ok ? (row.createdPostId ? <Link href={`/posts/${row.createdPostId}`}>Created</Link> : <span className="state-ok">OK</span>) : <span className="state-bad">Error</span>}</td>
                <td>{row.errorDetails.length === 0 ? '—' : (
                  <ul className="row-errors">{row.errorDetails.map((e, i) => <li key={i}>{e.column && <code>{e.column}</code>} {e.message}</li>)}</ul>
                )}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/**
 * The CSV template: every column the upload reads (the server's own list, src/shared/bulk-columns.ts)
 * and two example rows for the user's first profile and a platform it has an account on.
 */
function TemplateLink() {
  const profiles = useProfiles();
  const accounts = useAccounts();
  const href = useMemo(() => {
    const active = (id: string) => accounts.data?.find((a) => a.profileId === id && a.isActive);
    const list = profiles.data ?? [];
    const profile = list.find((p) => p.isDefault && active(p._id)) ?? list.find((p) => active(p._id)) ?? list.find((p) => p.isDefault) ?? list[0];
    const platform = profile ? active(profile._id)?.platform : undefined;
    return `data:text/csv;charset=utf-8,${encodeURIComponent(bulkCsvTemplate({ ...(profile ? { profile: profile.name } : {}), ...(platform ? { platform } : {}) }))}`;
  }, [profiles.data, accounts.data]);
  return (
    <p className="bulk-template">
      <a className="btn btn-sm" href={href} download="herald-bulk-template.csv">Download a CSV template</a>{' '}
      <span className="muted small">All {BULK_COLUMNS.length} columns the upload reads, with two example rows; delete the columns you do not need.</span>
    </p>
  );
}

export default function BulkPage() {
  const qc = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [checked, setChecked] = useState<BulkResult | null>(null);
  const dry = useMutation({ mutationFn: (f: File) => send(f, true), onSuccess: setChecked });
  const create = useMutation({
    mutationFn: (f: File) => send(f, false),
    onSuccess: (r) => { setChecked(r); void qc.invalidateQueries({ queryKey: ['posts'] }); void qc.invalidateQueries({ queryKey: ['usage'] }); },
  });
  return (
    <>
      <PageTitle title="Bulk upload" />
      <p className="muted">Create many posts from a CSV file. Required columns: <code>platforms</code> and <code>profiles</code>, plus <code>schedule_time</code> with <code>tz</code>, or one of <code>publish_now</code>, <code>is_draft</code>, <code>use_queue</code> set to true. The text comes from <code>post_content</code>.</p>
      <TemplateLink />
      <form className="card" onSubmit={(e) => { e.preventDefault(); if (file) dry.mutate(file); }} aria-label="Upload a CSV">
        <div className="field">
          <label htmlFor="bulk-file">CSV file</label>
          <input id="bulk-file" type="file" accept=".csv,text/csv" onChange={(e) => { setFile(e.target.files?.[0] ?? null); setChecked(null); dry.reset(); create.reset(); }} />
        </div>
        <div className="button-row">
          <button type="submit" className="btn" disabled={!file || dry.isPending}>{dry.isPending ? 'Checking…' : 'Check the file (dry run)'}</button>
          <button type="button" className="btn btn-primary" disabled={!file || !checked?.dryRun || checked.valid === 0 || create.isPending} onClick={() => file && create.mutate(file)}>
            {create.isPending ? 'Creating…' : checked?.dryRun ? `Create ${checked.valid} post(s)` : 'Create posts'}
          </button>
        </div>
        <ErrorBox error={dry.error ?? create.error} title="The file was not accepted" />
      </form>
      {checked && <Results r={checked} />}
    </>
  );
}
