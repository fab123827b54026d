import {
  CLAIM_HISTORY_PROVIDER_TYPES, CLAIM_HISTORY_REASONS, CREDENTIALING_KIND, LICENSING_REASON, TEXT_MAX, US_STATES,
  type CredentialingForm,
} from '../../../../../domain';
import { SelectField, TextField } from '../../../components/ui/form-field';
import { bindField, DATE_INPUT, type FormSectionProps } from './form-section';
import { PeriodPicker } from './period-picker';

// The claim history period as the kind declares it (from 07/01/2002 to today): the calendar offers only those days.
const [PERIOD] = CREDENTIALING_KIND.periods;

export function RequestInformationSection(props: FormSectionProps) {
  const bind = (field: Parameters<typeof bindField>[1]) => bindField(props, field);
  return (
    <fieldset className="form-section">
      <legend className="form-section__title">Request Information</legend>
      <div className="form-grid">
        <PeriodPicker period={PERIOD} values={{ ...props.form }} disabled={props.disabled}
          onChange={(changed) => Object.entries(changed).forEach(([field, value]) => props.onChange(field as keyof CredentialingForm, String(value ?? '')))} />
        <TextField label="Request Start Date" required hint="mm/dd/yyyy, after July 1, 2002" {...DATE_INPUT} {...bind('dateFrom')} />
        <TextField label="Request End Date" required hint="mm/dd/yyyy" {...DATE_INPUT} {...bind('dateTo')} />
        <SelectField label="Provider Type" required options={CLAIM_HISTORY_PROVIDER_TYPES} {...bind('providerType')} />
        <SelectField label="Reason" required options={CLAIM_HISTORY_REASONS} {...bind('reason')} />
        {props.form.reason === LICENSING_REASON && (
          <SelectField label="State" required options={US_STATES} {...bind('licensingState')} />
        )}
        <TextField label="Requesting Facility" maxLength={TEXT_MAX} autoComplete="off" {...bind('facilityName')} />
      </div>
    </fieldset>
  );
}
