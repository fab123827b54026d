/** Every ORM entity. Never imported by workflows/ or ui/. */
import { AdminSchema } from './admin.entity';
import { EmailConfirmationSchema, PasswordResetSchema, UsedChallengeSchema } from './account-token.entity';
import { SecurityEventSchema } from './security-event.entity';
import { ClaimDataSchema } from './claim-data.entity';
import { ClaimHistorySchema } from './claim-history.entity';
import { FaqSchema } from './faq.entity';
import { RequestExportSchema } from './request-export.entity';
import { DiscussionSchema } from './discussion.entity';
import { InboundMessageSchema } from './inbound-message.entity';
import { CounterSchema } from './counter.entity';
import { DocumentSchema } from './document.entity';
import { RequestEffectSchema } from './request-effect.entity';
import { EmailTemplateSchema } from './email-template.entity';
import { PersonSchema } from './person.entity';
import { PolicyYearSchema } from './policy-year.entity';
import { RequestActivitySchema } from './request-activity.entity';
import { RequestSchema } from './request.entity';
import { UserSchema } from './user.entity';
import { SamlMessageIdSchema } from './saml-message.entity';
import { IssuedLetterSchema } from './issued-letter.entity';

export * from './admin.entity';
export * from './account-token.entity';
export * from './claim-data.entity';
export * from './claim-history.entity';
export * from './faq.entity';
export * from './request-export.entity';
export * from './counter.entity';
export * from './discussion.entity';
export * from './inbound-message.entity';
export * from './document.entity';
export * from './request-effect.entity';
export * from './email-template.entity';
export * from './person.entity';
export * from './policy-year.entity';
export * from './request-activity.entity';
export * from './request.entity';
export * from './user.entity';
export * from './saml-message.entity';
export * from './security-event.entity';
export * from './issued-letter.entity';

export const ALL_ENTITIES = [
  AdminSchema, CounterSchema, DocumentSchema, RequestEffectSchema, EmailTemplateSchema, PersonSchema, PolicyYearSchema,
  RequestActivitySchema, RequestSchema, UserSchema, PasswordResetSchema, UsedChallengeSchema,
  // the administrators' desk
  ClaimDataSchema, ClaimHistorySchema, FaqSchema, RequestExportSchema,
  // working a request together
  DiscussionSchema,
  // university single sign-on
  SamlMessageIdSchema,
  // identity you can trust
  EmailConfirmationSchema, SecurityEventSchema,
  // certificates that prove themselves: verification codes, digests, status
  IssuedLetterSchema,
  // answers by email
  InboundMessageSchema,
];
