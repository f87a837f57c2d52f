/** The demo handler set: operations tools that ask a person, a model or the client's roots before they act. */
import type { HandlerSet } from '@durable-mcp/handlers';
import { accessRequest } from './access-request';
import { confirmTransfer } from './confirm-transfer';
import { deployService } from './deploy-service';
import { greet } from './greet';
import { guessNumber } from './guess-number';
import { incidentBrief } from './incident-brief';
import { onboardingWizard } from './onboarding-wizard';
import { refundOrder } from './refund-order';
import { runbook, runbookIndex } from './runbooks';

export const demoHandlers: HandlerSet = {
  name: 'demo',
  instructions:
    'Operations helpers that ask a person before they act: deployment approvals, onboarding, incident briefs.',
  tools: [greet, guessNumber, deployService, onboardingWizard, accessRequest, refundOrder, confirmTransfer],
  prompts: [incidentBrief],
  resources: [runbookIndex],
  resourceTemplates: [runbook],
};
