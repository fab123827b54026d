import {
  CLAIM_HISTORY_PROVIDER_TYPES, CLAIM_HISTORY_REASONS, LICENSING_REASON, TEXT_MAX, US_STATES,
} from '../../../../../domain';
import { SelectField, TextField } from '../../../components/ui/form-field';
import { bindField, DATE_INPUT, type FormSectionProps } from './form-section';

export function RequestInformationSection(props: FormSectionProps) {
  const bind = (field: Parameters<typeof bindField>[1]) => bindField(props, field);
  return (
    <fieldset className="form-section">
      <legend className="form-section__title">Request Information</legend>
      <div className="form-grid">
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
