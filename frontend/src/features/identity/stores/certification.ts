import { makeAutoObservable, runInAction } from 'mobx';
import type { AppServices } from '../../../kernel/services';
import { errorMessage } from '../../../transport/apiError';

/** What this store needs from the others (the root store provides it). */
export type CertificationDeps = Pick<AppServices, 'api' | 'ui'>;

/** §5.3: the ID number's input maximum. */
export const ID_NO_MAX_LENGTH = 18;

/** The form's first failing rule (§5.3), as the warning toast shows it; null when it passes. */
export function certificationProblem(realName: string, idNo: string): string | null {
  const name = realName.trim();
  const id = idNo.trim();
  if (!name) return '姓名不能为空';
  if ([...name].length < 2) return '姓名不能少于2个字符';
  if (!id) return '身份证号不能为空';
  if (!/^[0-9a-zA-Z]{15,18}$/.test(id)) return '身份证号格式不正确';
  return null;
}

/** The certification dialog's form (§2.15). */
export class CertificationForm {
  realName = '';
  idNo = '';
  submitting = false;

  constructor(private readonly deps: CertificationDeps) {
    makeAutoObservable<CertificationForm, 'deps'>(this, { deps: false });
  }

  setRealName(v: string): void {
    this.realName = v;
  }

  setIdNo(v: string): void {
    this.idNo = v.replace(/[^0-9a-zA-Z]/g, '').slice(0, ID_NO_MAX_LENGTH);
  }

  /** Submits; true once certified (the toasts of §4.9 shown). */
  async submit(): Promise<boolean> {
    const problem = certificationProblem(this.realName, this.idNo);
    if (problem) {
      this.deps.ui.warning(problem);
      return false;
    }
    this.submitting = true;
    try {
      await this.deps.api.post('/api/user/v1/info/idauth', { real_name: this.realName.trim(), id_no: this.idNo.trim() });
      this.deps.ui.success('实名认证成功');
      return true;
    } catch (e) {
      this.deps.ui.warning(errorMessage(e));
      return false;
    } finally {
      runInAction(() => (this.submitting = false));
    }
  }
}
