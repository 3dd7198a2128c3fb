//! Pay methods (commerce.md §9) and the filtering of §4.2 as plain functions.

/// A pay method: its code (`payCode`) and number (`payType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PayMethod {
    /// WECHAT 0, scan pay.
    Wechat,
    /// ALIPAY 1, scan pay.
    Alipay,
    /// EXCHANGE 7: coins (云游币).
    Yunyoubi,
    /// BANK 20: bank transfer.
    Bank,
}

impl PayMethod {
    pub const ALL: [PayMethod; 4] = [PayMethod::Wechat, PayMethod::Alipay, PayMethod::Yunyoubi, PayMethod::Bank];

    pub fn code(self) -> &'static str {
        match self {
            PayMethod::Wechat => "wechat",
            PayMethod::Alipay => "alipay",
            PayMethod::Yunyoubi => "yunyoubi",
            PayMethod::Bank => "bank",
        }
    }

    pub fn pay_type(self) -> i32 {
        match self {
            PayMethod::Wechat => 0,
            PayMethod::Alipay => 1,
            PayMethod::Yunyoubi => 7,
            PayMethod::Bank => 20,
        }
    }

    /// The name shown.
    pub fn name(self) -> &'static str {
        match self {
            PayMethod::Wechat => "微信支付",
            PayMethod::Alipay => "支付宝",
            PayMethod::Yunyoubi => "云游币",
            PayMethod::Bank => "对公转账",
        }
    }

    pub fn from_code(code: &str) -> Option<PayMethod> {
        PayMethod::ALL.into_iter().find(|m| m.code() == code)
    }

    pub fn from_pay_type(t: i64) -> Option<PayMethod> {
        PayMethod::ALL.into_iter().find(|m| i64::from(m.pay_type()) == t)
    }
}

/// What the purchase is, as far as the pay methods care.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PayContext {
    /// Buying coins (the coin method pays for everything else).
    pub recharging_coins: bool,
    /// An auto-renew product.
    pub auto_renew: bool,
    /// A coupon group purchase.
    pub coupon_group: bool,
}

/// The methods allowed (§4.2): coins not for recharging coins; only alipay for auto-renew; a
/// coupon group only wechat, alipay and bank; bank only for a coupon group.
pub fn allowed(ctx: PayContext) -> Vec<PayMethod> {
    PayMethod::ALL
        .into_iter()
        .filter(|m| match m {
            PayMethod::Bank => ctx.coupon_group,
            PayMethod::Yunyoubi => !ctx.recharging_coins && !ctx.coupon_group && !ctx.auto_renew,
            PayMethod::Wechat => !ctx.auto_renew || ctx.coupon_group,
            PayMethod::Alipay => true,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use PayMethod::*;

    fn check(ctx: PayContext, expected: &[PayMethod]) {
        assert_eq!(allowed(ctx), expected, "{ctx:?}");
    }

    // §4.2, one context a row.
    #[test]
    fn filtering() {
        check(PayContext::default(), &[Wechat, Alipay, Yunyoubi]);
        check(
            PayContext {
                recharging_coins: true,
                ..Default::default()
            },
            &[Wechat, Alipay],
        );
        check(
            PayContext {
                auto_renew: true,
                ..Default::default()
            },
            &[Alipay],
        );
        check(
            PayContext {
                coupon_group: true,
                ..Default::default()
            },
            &[Wechat, Alipay, Bank],
        );
    }

    #[test]
    fn codes_and_types_round_trip() {
        for m in PayMethod::ALL {
            assert_eq!(PayMethod::from_code(m.code()), Some(m));
            assert_eq!(PayMethod::from_pay_type(i64::from(m.pay_type())), Some(m));
        }
        assert_eq!(PayMethod::from_code("qq"), None);
        assert_eq!(PayMethod::from_pay_type(8), None);
    }
}
