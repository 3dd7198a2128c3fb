import { CODE_MAX_LENGTH, PHONE_MAX_LENGTH } from '../../../lib/validation';

interface PhoneCodeFieldsProps {
  /** the test ids' prefix: `{prefix}-phone`, `{prefix}-code`, `{prefix}-send-code`, … */
  prefix: string;
  phone: string;
  code: string;
  onPhone(v: string): void;
  onCode(v: string): void;
  phoneError?: string | null;
  codeError?: string | null;
  sendLabel: string;
  canSend: boolean;
  onSend(): void;
}

/** A phone and its SMS code with the send button (the login form, the phone bind). */
export function PhoneCodeFields(p: PhoneCodeFieldsProps) {
  return (
    <>
      <div className="field">
        <input
          className={`input${p.phoneError ? ' has-error' : ''}`}
          data-testid={`${p.prefix}-phone`}
          type="tel"
          inputMode="numeric"
          autoComplete="tel"
          placeholder="请输入手机号"
          maxLength={PHONE_MAX_LENGTH}
          value={p.phone}
          onChange={(e) => p.onPhone(e.target.value)}
        />
        {p.phoneError && (
          <div className="field__error" data-testid={`${p.prefix}-phone-error`}>
            {p.phoneError}
          </div>
        )}
      </div>
      <div className="field field--code">
        <div className="field__row">
          <input
            className={`input${p.codeError ? ' has-error' : ''}`}
            data-testid={`${p.prefix}-code`}
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder="请输入验证码"
            maxLength={CODE_MAX_LENGTH}
            value={p.code}
            onChange={(e) => p.onCode(e.target.value)}
          />
          <button type="button" className="btn btn--outline field__send" data-testid={`${p.prefix}-send-code`} disabled={!p.canSend} onClick={p.onSend}>
            {p.sendLabel}
          </button>
        </div>
        {p.codeError && (
          <div className="field__error" data-testid={`${p.prefix}-code-error`}>
            {p.codeError}
          </div>
        )}
      </div>
    </>
  );
}
