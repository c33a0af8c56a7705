/**
 * The choice step of a connection (a Facebook page, a LinkedIn author, a Google Business Profile
 * location, a Discord channel, ...), for every platform whose connect shape has one: the OAuth
 * callback lands on `/dashboard/connect/{platform}/select-{noun}` with `profileId` and `tempToken`;
 * the choices come from `GET /v1/connect/{platform}/choices` (`{ title, empty, note?, choices: [{ value,
 * label, hint }] }`) and the chosen value goes to `POST /v1/connect/{platform}/choose`. Names no
 * platform: a new platform's choice shows up here without a line of its own
 * (docs/decisions/0051-platform-connect-contract.md).
 */
import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useLocation, useParams, useSearch } from 'wouter';
import { api, unwrap } from '../api.ts';
import { ErrorBox, Loading, PageTitle } from '../components.tsx';

/** The choice page of `/connect/:platform/:step`. */
export function ChooseConnection() {
  const { platform = '' } = useParams<{ platform: string }>();
  const q = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const profileId = q.get('profileId') ?? '';
  const tempToken = q.get('tempToken') ?? '';
  const [value, setValue] = useState('');
  // Typed by the generated client for one platform; the paths are the same for every platform with a choice.
  const path = <S extends 'choices' | 'choose'>(suffix: S) => `/v1/connect/${platform}/${suffix}` as `/v1/connect/facebook/${S}`;
  const step = useQuery({
    queryKey: ['connect-choices', platform, profileId, tempToken],
    queryFn: () => unwrap(api.GET(path('choices'), { params: { query: { profileId, tempToken } } })),
  });
  const choose = useMutation({
    mutationFn: (v: string) => unwrap(api.POST(path('choose'), { body: { profileId, tempToken, value: v } })),
    onSuccess: () => navigate(`/profiles?connected=${encodeURIComponent(platform)}`),
  });
  const choices = step.data?.choices ?? [];
  const chosen = value || (choices.length === 1 ? choices[0].value : '');
  return (
    <>
      <PageTitle title={step.data?.title ?? 'Finish connecting'} />
      {step.isLoading && <Loading />}
      <ErrorBox error={step.error} title="Could not list the choices" />
      {step.data?.note && <p className="muted">{step.data.note}</p>}
      {step.data && choices.length === 0 && <p className="muted" role="status">{step.data.empty}</p>}
      {choices.length > 0 && (
        <form className="card" onSubmit={(e) => { e.preventDefault(); choose.mutate(chosen); }}>
          <fieldset className="choice-list"><legend>{step.data!.title}</legend>
            {choices.map((c) => (
              <label key={c.value} className={`choice${chosen === c.value ? ' on' : ''}`}>
                <input type="radio" name="choice" value={c.value} checked={chosen === c.value} onChange={() => setValue(c.value)} />
                <span className="choice-text"><strong>{c.label}</strong>{c.hint && <span className="hint">{c.hint}</span>}</span>
              </label>
            ))}
          </fieldset>
          <ErrorBox error={choose.error} title="Could not finish connecting" />
          <button type="submit" className="btn btn-primary" disabled={!chosen || choose.isPending}>Connect</button>
        </form>
      )}
    </>
  );
}
