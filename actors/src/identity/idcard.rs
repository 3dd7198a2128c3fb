//! The resident ID number (GB 11643): 18 characters, the last a check character (0–9 or X)
//! over the first 17 with the standard weights, or the legacy 15 digits (the year without its
//! century); the birth date inside it gives the age. The form's own rules (§5.3: 15–18 letters
//! or digits) are checked first; this is what the identity check then relies on.

/// The birth date in an ID number: (year, month, day), or None when the number is malformed
/// (wrong length, characters, check character, or an impossible date).
pub fn birth_date(id_no: &str) -> Option<(i64, i64, i64)> {
    let id = id_no.trim().to_ascii_uppercase();
    let b = id.as_bytes();
    let (y, m, d) = match b.len() {
        18 => {
            if !b[..17].iter().all(u8::is_ascii_digit) || check_char(&b[..17]) != b[17] {
                return None;
            }
            (num(&b[6..10]), num(&b[10..12]), num(&b[12..14]))
        }
        15 if b.iter().all(u8::is_ascii_digit) => (1900 + num(&b[6..8]), num(&b[8..10]), num(&b[10..12])),
        _ => return None,
    };
    let days_in_month = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        _ => return None,
    };
    ((1900..=2100).contains(&y) && (1..=days_in_month).contains(&d)).then_some((y, m, d))
}

fn num(digits: &[u8]) -> i64 {
    digits.iter().fold(0, |n, d| n * 10 + i64::from(d - b'0'))
}

/// The check character of the first 17 digits.
pub fn check_char(first17: &[u8]) -> u8 {
    const WEIGHTS: [i64; 17] = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
    const CHECK: &[u8; 11] = b"10X98765432";
    let sum: i64 = first17.iter().zip(WEIGHTS).map(|(d, w)| i64::from(d - b'0') * w).sum();
    CHECK[(sum % 11) as usize]
}

/// Full years of age on the civil date `today` (year, month, day) for a birth date.
pub fn age_on(birth: (i64, i64, i64), today: (i64, i64, i64)) -> i64 {
    let before_birthday = (today.1, today.2) < (birth.1, birth.2);
    today.0 - birth.0 - i64::from(before_birthday)
}

/// The ID number as shown after certification: the first and last 4 characters.
pub fn mask_id(id_no: &str) -> String {
    let chars: Vec<char> = id_no.chars().collect();
    if chars.len() <= 8 {
        return "*".repeat(chars.len());
    }
    let (head, tail) = (&chars[..4], &chars[chars.len() - 4..]);
    format!(
        "{}{}{}",
        head.iter().collect::<String>(),
        "*".repeat(chars.len() - 8),
        tail.iter().collect::<String>()
    )
}

/// The name as shown after certification: its first character kept.
pub fn mask_name(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => format!("{first}{}", "*".repeat(chars.count())),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An 18-character number with a valid check character for a birth date.
    pub fn id_for(y: i64, m: i64, d: i64) -> String {
        let first17 = format!("110101{y:04}{m:02}{d:02}123");
        let c = check_char(first17.as_bytes()) as char;
        format!("{first17}{c}")
    }

    #[test]
    fn check_characters_dates_and_ages() {
        let id = id_for(2010, 2, 28);
        assert_eq!(birth_date(&id), Some((2010, 2, 28)));
        assert_eq!(birth_date(&id.to_lowercase()), Some((2010, 2, 28)));
        let mut wrong = id.clone().into_bytes();
        wrong[17] = if wrong[17] == b'0' { b'1' } else { b'0' };
        assert_eq!(birth_date(std::str::from_utf8(&wrong).unwrap()), None, "a wrong check character");
        assert_eq!(birth_date("11010119900230123X"), None, "no 30 February");
        assert_eq!(birth_date("110101900101123"), Some((1990, 1, 1)), "the legacy 15 digits");
        assert_eq!(birth_date("1101011990010112"), None);
        assert_eq!(birth_date(""), None);
        assert_eq!(birth_date(&id_for(2000, 2, 29)), Some((2000, 2, 29)));

        // the day before the 18th birthday a minor, on it an adult
        assert_eq!(age_on((2008, 11, 24), (2026, 11, 23)), 17);
        assert_eq!(age_on((2008, 11, 24), (2026, 11, 24)), 18);
        assert_eq!(mask_id("110101200802281234"), "1101**********1234");
        assert_eq!(mask_name("张三丰"), "张**");
    }
}
