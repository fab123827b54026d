/** The self-hosted ALTCHA proof-of-work widget (a web component); reports the solved payload, or null. */
import 'altcha';
import 'altcha/types/react';
import { useEffect, useRef, useState } from 'react';

export const CAPTCHA_CHALLENGE_URL = '/api/v1/captcha-challenge';

/**
 * The widget gives up after 90 s by default. The highest sign-in level took 20 s on a 2-core machine (docs/ACCOUNTS.md);
 * an old phone may need a few times that: it may work up to 5 minutes, well within the challenge's 10.
 */
const WIDGET_CONFIGURATION = JSON.stringify({ timeout: 300_000 });

/** The check a sign-in of `email` needs now (its work rises with the failures from the network and on the account). */
export const signInCheckUrl = (email: string) => `${CAPTCHA_CHALLENGE_URL}?email=${encodeURIComponent(email)}`;

/** `challengeUrl`: where the challenge comes from (registration's by default), read once when the widget appears. */
export function Captcha({ onChange, challengeUrl = CAPTCHA_CHALLENGE_URL }: { onChange: (payload: string | null) => void; challengeUrl?: string }) {
  const ref = useRef<HTMLElement>(null);
  const [challenge] = useState(challengeUrl);
  const onChangeRef = useRef(onChange);
  useEffect(() => { onChangeRef.current = onChange; }, [onChange]);

  useEffect(() => {
    const widget = ref.current;
    if (!widget) return;
    const listener = (event: Event) => {
      const detail = (event as CustomEvent<{ state?: string; payload?: string }>).detail ?? {};
      onChangeRef.current(detail.state === 'verified' && detail.payload ? detail.payload : null);
    };
    widget.addEventListener('statechange', listener);
    return () => widget.removeEventListener('statechange', listener);
  }, []);

  return <altcha-widget ref={ref} challenge={challenge} name="altcha" configuration={WIDGET_CONFIGURATION} />;
}
