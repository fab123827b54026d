import { TEXT_MAX } from '../../../../../domain';
import { TextField } from '../../../components/ui/form-field';
import { bindField, type FormSectionProps } from './form-section';

export function RecipientSection(props: FormSectionProps) {
  return (
    <fieldset className="form-section">
      <legend className="form-section__title">Request Recipient</legend>
      <TextField label="Email Address of Recipient if NOT the Requester" type="email" maxLength={TEXT_MAX} autoComplete="off"
        {...bindField(props, 'recipientEmail')} />
    </fieldset>
  );
}
