export { AUTOMATED_EMAIL_ACTOR } from '../../domain';
export const DEV_REQUESTER_EMAIL = 'requester@hospital.example';
