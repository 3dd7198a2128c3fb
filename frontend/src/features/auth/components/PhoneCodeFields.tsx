import { InputField } from '../../../components/InputField';
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
      <InputField
        testId={`${p.prefix}-phone`}
        error={p.phoneError}
        type="tel"
        inputMode="numeric"
        autoComplete="tel"
        placeholder="请输入手机号"
        maxLength={PHONE_MAX_LENGTH}
        value={p.phone}
        onValue={p.onPhone}
      />
      <InputField
        testId={`${p.prefix}-code`}
        error={p.codeError}
        variant="field--code"
        inputMode="numeric"
        autoComplete="one-time-code"
        placeholder="请输入验证码"
        maxLength={CODE_MAX_LENGTH}
        value={p.code}
        onValue={p.onCode}
        aside={
          <button type="button" className="btn btn--outline field__send" data-testid={`${p.prefix}-send-code`} disabled={!p.canSend} onClick={p.onSend}>
            {p.sendLabel}
          </button>
        }
      />
    </>
  );
}
