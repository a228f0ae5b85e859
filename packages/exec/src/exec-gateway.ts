/** A request to run a command, as the gateway sees it. */
export interface ExecRequest {
  cmd: string;
  workdir: string;
  tty: boolean;
  sandbox_permissions: 'use_default' | 'require_escalated';
  justification?: string;
}

/** The gateway's answer. */
export type ExecDecision = { allow: true } | { allow: false; reason: string };

/** Decides whether a command may run with the permissions it asks for. */
export interface ExecGateway {
  decide(request: ExecRequest): ExecDecision | Promise<ExecDecision>;
}

/** The default gateway: allows `use_default`, denies escalation. */
export const defaultExecGateway: ExecGateway = {
  decide(request) {
    if (request.sandbox_permissions === 'use_default') return { allow: true };
    return { allow: false, reason: 'escalated permissions are not available in this host; run the command without sandbox_permissions' };
  },
};
