import { certificationProblem } from './certification';

describe('the real-name form (core-platform.md §5.3)', () => {
  it('the first failing rule, with its text', () => {
    expect(certificationProblem(' ', '')).toBe('姓名不能为空');
    expect(certificationProblem('张', '')).toBe('姓名不能少于2个字符');
    expect(certificationProblem('张三', ' ')).toBe('身份证号不能为空');
    expect(certificationProblem('张三', '12345678901234')).toBe('身份证号格式不正确');
    expect(certificationProblem('张三', '1234567890123456789')).toBe('身份证号格式不正确');
    expect(certificationProblem('张三', '11010119900101123x')).toBeNull();
    expect(certificationProblem('张三', '110101900101123')).toBeNull();
  });
});
