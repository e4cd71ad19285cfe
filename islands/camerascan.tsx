// The camera-scan island of the engagement pages. On /activities (mode "booth") a scanned booth QR,
// a /scan URL of this site, opens that URL; anything else is refused with a message. On the booth
// staff page (mode "participant") a scanned participant QR fills the visit form and submits it.
import { useState } from 'react';
import { mountIsland } from './lib/mount';
import { QRScanner } from './components/QRScanner';

/** CameraScanProps mirrors views.CameraScanProps. */
interface CameraScanProps {
  mode: 'booth' | 'participant';
  origins: string[];
  formId?: string;
  inputId?: string;
}

const NOT_BOOTH = 'This is not a Palaro booth code.';
const NOT_PARTICIPANT = "This is not a participant's QR code.";

/** boothURL returns the path and query of a booth's scan URL on this site, or '' for anything else. */
export function boothURL(raw: string, origins: string[]): string {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return '';
  }
  if (![location.origin, ...origins].includes(u.origin) || u.pathname !== '/scan') return '';
  if (!u.searchParams.get('activityCode') || !u.searchParams.get('eventCode')) return '';
  return u.pathname + u.search;
}

/** participantID returns the participant id of a participant QR (the id, or its page's URL), or ''. */
export function participantID(raw: string, origins: string[]): string {
  let id = raw.trim();
  if (/^https?:\/\//.test(id)) {
    try {
      const u = new URL(id);
      const m = u.pathname.match(/^\/register\/success\/([a-z2-7]+)$/);
      if (![location.origin, ...origins].includes(u.origin) || !m) return '';
      id = m[1];
    } catch {
      return '';
    }
  }
  return /^[a-z2-7]{16,64}$/.test(id) ? id : '';
}

function CameraScan(props: CameraScanProps) {
  const [message, setMessage] = useState({ text: '', error: false });
  const refuse = (text: string) => setMessage({ text, error: true });
  const onCode = (raw: string) => {
    if (props.mode === 'booth') {
      const to = boothURL(raw, props.origins);
      if (!to) return refuse(NOT_BOOTH);
      setMessage({ text: 'Opening the booth…', error: false });
      location.assign(to);
      return;
    }
    const id = participantID(raw, props.origins);
    const input = document.getElementById(props.inputId || '') as HTMLInputElement | null;
    const form = document.getElementById(props.formId || '') as HTMLFormElement | null;
    if (!id || !input || !form) return refuse(NOT_PARTICIPANT);
    setMessage({ text: 'Registering the visit…', error: false });
    input.value = id;
    form.requestSubmit();
  };
  const booth = props.mode === 'booth';
  return (
    <div className="camera-scan">
      <QRScanner
        className="gate-camera"
        onCode={onCode}
        startLabel={booth ? 'Scan a booth' : "Scan the participant's QR"}
        unavailable={booth ? "The camera is not available here: open your phone's camera app and point it at the booth's QR code." : 'The camera is not available here: type or paste the participant id instead.'}
      />
      <p className={message.error ? 'camera-scan-message field-error' : 'camera-scan-message'} role="status" aria-live="polite">
        {message.text}
      </p>
    </div>
  );
}

mountIsland('camerascan', CameraScan);
