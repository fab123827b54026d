import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { Alert } from '../../components/ui/alert';
import { Loading } from '../../components/ui/loading';
import { paths } from '../../lib/paths';
import { queryKeys } from '../../lib/query-keys';
import { useLiveQueries } from '../../lib/use-live-queries';
import { getInstantRules, type InstantRule } from './instant-api';
import { HeldRequesters } from './held-requesters';
import { OfficeSwitch } from './office-switch';
import { RuleEditor } from './rule-editor';
import { RuleVersionsDialog } from './rule-versions-dialog';
import { RulesTable } from './rules-table';

/**
 * `/manage/instant-certificates`: the office's switch and the rules that let a standard certificate issue itself on
 * submit, each versioned, switched on one by one, simulated before it is trusted.
 */
export function InstantCertificatesPage() {
  const list = useQuery({ queryKey: queryKeys.instantRules, queryFn: ({ signal }) => getInstantRules(signal) });
  // What the rules issued today moves as requests are approved; a rule switched off by itself shows at once too.
  useLiveQueries([queryKeys.instantRules], { kinds: ['status'] });
  const [editing, setEditing] = useState<InstantRule | 'new' | null>(null);
  const [versionsOf, setVersionsOf] = useState<InstantRule | null>(null);
  const [done, setDone] = useState('');

  const open = (rule: InstantRule | 'new') => { setDone(''); setEditing(rule); };
  const saved = (rule: InstantRule) => {
    setEditing(null);
    setDone(rule.version === 1 ? `"${rule.name}" was saved, switched off.` : `"${rule.name}" was saved as version ${rule.version}.`);
  };

  return (
    <section className="page">
      <h1>Instant Certificates</h1>
      <p>
        A request a rule covers is approved the moment it is submitted, by the rule, and its certificate issued as for a person&apos;s approval;
        every other request waits for a person. One in N certificates a rule issues goes to <Link to={paths.manage.instantChecks.getHref()}>Check After Issue</Link>.
      </p>
      {list.status === 'pending' && <Loading />}
      {list.status === 'error' && <Alert kind="error">{list.error.message}</Alert>}
      {list.data && <OfficeSwitch settings={list.data.settings} />}
      {list.data && (
        <section aria-labelledby="instant-rules-heading">
          <h2 id="instant-rules-heading">Rules</h2>
          <div className="button-row"><button type="button" className="button" onClick={() => open('new')}>New Rule</button></div>
          <p role="status" className="muted">{done}</p>
          <RulesTable rules={list.data.data} onEdit={open} onVersions={setVersionsOf} />
        </section>
      )}
      {editing && (
        <RuleEditor key={editing === 'new' ? 'new' : `${editing.id}-${editing.version}`} rule={editing === 'new' ? null : editing}
          onSaved={saved} onCancel={() => setEditing(null)} />
      )}
      {list.data && <HeldRequesters />}
      <RuleVersionsDialog rule={versionsOf} onClose={() => setVersionsOf(null)} />
    </section>
  );
}
