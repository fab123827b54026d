import { TEXT_MAX } from '../../../../../domain';
import { TextField } from '../../../components/ui/form-field';
import { bindField, DATE_INPUT, type FormSectionProps } from './form-section';

export function ClinicianSection(props: FormSectionProps & { birthDateRequired: boolean }) {
  const bind = (field: Parameters<typeof bindField>[1]) => bindField(props, field);
  return (
    <fieldset className="form-section">
      <legend className="form-section__title">Clinician Information</legend>
      <div className="form-grid">
        <TextField label="Last Name" required maxLength={TEXT_MAX} autoComplete="off" {...bind('lastName')} />
        <TextField label="First Name" required maxLength={TEXT_MAX} autoComplete="off" {...bind('firstName')} />
        <TextField label="Middle Initial" maxLength={2} autoComplete="off" className="field__control field__control--short" {...bind('middleInitial')} />
        <TextField label="Previous/Alternate Name" maxLength={TEXT_MAX} autoComplete="off" {...bind('altName')} />
        <TextField label="Email" type="email" maxLength={TEXT_MAX} autoComplete="off" {...bind('email')} />
        <TextField label="Birth Date" required={props.birthDateRequired} hint="mm/dd/yyyy" {...DATE_INPUT} {...bind('birthDate')} />
      </div>
    </fieldset>
  );
}
