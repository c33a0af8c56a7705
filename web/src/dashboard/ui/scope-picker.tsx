/**
 * "All profiles / only these" with a checkbox per profile: a team member's access (Team page) and an
 * API key's profile scope (API keys page, decision 0063).
 */
import type { Profile } from '../api.ts';
import './scope-picker.css';

/** The choice: every profile, or only `profileIds`. */
export interface Scope { scope: 'all' | 'profiles'; profileIds: string[] }

/** Radio "all profiles / only these" with a checkbox per profile; `legend` names the fieldset. */
export function ScopePicker({ id, value, onChange, profiles, legend = 'Profile access' }: { id: string; value: Scope; onChange: (s: Scope) => void; profiles: Profile[]; legend?: string }) {
  const toggle = (pid: string) => onChange({ scope: 'profiles', profileIds: value.profileIds.includes(pid) ? value.profileIds.filter((x) => x !== pid) : [...value.profileIds, pid] });
  return (
    <fieldset className="scope-picker">
      <legend>{legend}</legend>
      <label className="check"><input type="radio" name={`${id}-scope`} checked={value.scope === 'all'} onChange={() => onChange({ scope: 'all', profileIds: [] })} /> All profiles</label>
      <label className="check"><input type="radio" name={`${id}-scope`} checked={value.scope === 'profiles'} onChange={() => onChange({ scope: 'profiles', profileIds: value.profileIds })} /> Only these profiles:</label>
      {value.scope === 'profiles' && (
        <div className="scope-profiles">
          {profiles.map((p) => (
            <label key={p._id} className="check"><input type="checkbox" checked={value.profileIds.includes(p._id)} onChange={() => toggle(p._id)} /> {p.name}</label>
          ))}
        </div>
      )}
    </fieldset>
  );
}
