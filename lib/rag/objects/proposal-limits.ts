/**
 * The longest value a curator may type to override a proposal, shared by the service that
 * validates the decision and the form that takes it. No server-only import: the form reads it.
 */
export const maxProposalTextLength = 200;
