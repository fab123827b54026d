/** The self-hosted ALTCHA proof-of-work widget (a web component); reports the solved payload, or null. */
import 'altcha';
import 'altcha/types/react';
import { useEffect, useRef } from 'react';

export const CAPTCHA_CHALLENGE_URL = '/api/v1/captcha-challenge';

export function Captcha({ onChange }: { onChange: (payload: string | null) => void }) {
  const ref = useRef<HTMLElement>(null);
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

  return <altcha-widget ref={ref} challenge={CAPTCHA_CHALLENGE_URL} name="altcha" />;
}
