//! The primitive types. Decimal conversion is exact both ways and never goes
//! through `BigDecimal`'s text, which drops the scale of zero and of negative
//! scales (`0E-7` prints `0`, `1E+3` prints `1000`).

use bigdecimal::BigDecimal;
use num_bigint::{BigInt, Sign};

use super::{mismatch, FromValue, IntoValue, Json, Never, Result, Value};
use flow_core::error::{Error, Rule};
use flow_core::number::Number;
use flow_core::time::{Duration, Instant};

macro_rules! scalar {
    ($rust:ty, $variant:ident, $expected:literal) => {
        impl FromValue for $rust {
            fn from_value(value: Value) -> Result<Self> {
                match value {
                    Value::$variant(inner) => Ok(inner),
                    other => Err(mismatch($expected, &other)),
                }
            }
        }

        impl IntoValue for $rust {
            fn into_value(self) -> Value {
                Value::$variant(self)
            }
        }
    };
}

scalar!(bool, Bool, "a Bool");
scalar!(BigInt, Int, "an Int");
scalar!(Number, Decimal, "a Decimal");
scalar!(Vec<u8>, Bytes, "Bytes");
scalar!(Instant, Instant, "an Instant");
scalar!(Duration, Duration, "a Duration");
scalar!(Json, Json, "a json.Value");

/// A value as itself: for code that works with the value model directly.
impl FromValue for Value {
    fn from_value(value: Value) -> Result<Self> {
        Ok(value)
    }
}

impl IntoValue for Value {
    fn into_value(self) -> Value {
        self
    }
}

impl FromValue for String {
    fn from_value(value: Value) -> Result<Self> {
        match value {
            Value::Text(text) => Ok(text),
            other => Err(mismatch("a Text", &other)),
        }
    }
}

impl IntoValue for String {
    fn into_value(self) -> Value {
        Value::Text(self)
    }

    const IS_TEXT: bool = true;
}

impl FromValue for () {
    fn from_value(value: Value) -> Result<Self> {
        match value {
            Value::Unit => Ok(()),
            other => Err(mismatch("Unit", &other)),
        }
    }
}

impl IntoValue for () {
    fn into_value(self) -> Value {
        Value::Unit
    }
}

impl FromValue for Never {
    fn from_value(_: Value) -> Result<Self> {
        Err(Error::new(Rule::Never, "Never has no values"))
    }
}

impl IntoValue for Never {
    fn into_value(self) -> Value {
        match self {}
    }
}

impl FromValue for BigDecimal {
    fn from_value(value: Value) -> Result<Self> {
        match value {
            Value::Decimal(number) => Ok(decimal_from_number(&number)),
            other => Err(mismatch("a Decimal", &other)),
        }
    }
}

impl IntoValue for BigDecimal {
    fn into_value(self) -> Value {
        Value::Decimal(number_from_decimal(&self))
    }
}

/// The exact decimal of a number, normalized: no trailing zeros in its digits,
/// and zero with scale 0.
pub fn decimal_from_number(number: &Number) -> BigDecimal {
    if number.is_zero() {
        return BigDecimal::new(BigInt::from(0), 0);
    }
    let magnitude = BigInt::parse_bytes(number.digits().as_bytes(), 10).expect("a number's digits are ASCII decimal");
    let digits = if number.is_negative() { -magnitude } else { magnitude };
    // value = digits * 10^exponent = digits * 10^-scale
    BigDecimal::new(digits, number.exponent().saturating_neg())
}

/// The exact number of a decimal, whatever its scale.
pub fn number_from_decimal(decimal: &BigDecimal) -> Number {
    let (digits, scale) = decimal.as_bigint_and_exponent();
    let negative = digits.sign() == Sign::Minus;
    Number::from_parts(negative, &digits.magnitude().to_str_radix(10), scale.saturating_neg())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn round_trip(text: &str) -> String {
        let number = Number::parse_json(text).unwrap();
        let decimal = decimal_from_number(&number);
        number_from_decimal(&decimal).to_canonical()
    }

    #[test]
    fn decimals_convert_exactly() {
        for (text, canonical) in [
            ("0", "0"),
            ("-0.0", "0"),
            ("1.50", "1.5"),
            ("1e3", "1000"),
            ("-12e-5", "-0.00012"),
            ("123456789012345678901234567890.5", "123456789012345678901234567890.5"),
            ("1e-4299", &format!("0.{}1", "0".repeat(4298))),
        ] {
            assert_eq!(round_trip(text), canonical, "{text}");
        }
    }

    #[test]
    fn scales_that_display_drops_still_convert_exactly() {
        // BigDecimal's own text would give "1000" and "0"; the value is what counts.
        let thousand = BigDecimal::new(BigInt::from(1), -3);
        assert_eq!(number_from_decimal(&thousand).to_canonical(), "1000");
        let zero = BigDecimal::new(BigInt::from(0), 7);
        assert_eq!(number_from_decimal(&zero).to_canonical(), "0");
        let unnormalized = BigDecimal::from_str("-2.500").unwrap();
        assert_eq!(number_from_decimal(&unnormalized).to_canonical(), "-2.5");
    }

    #[test]
    fn decoded_decimals_are_normalized_and_compare_by_value() {
        let d = decimal_from_number(&Number::parse_json("2.50").unwrap());
        assert_eq!(d.as_bigint_and_exponent(), (BigInt::from(25), 1));
        assert_eq!(d, BigDecimal::from_str("2.5000").unwrap());
        assert!(decimal_from_number(&Number::parse_json("-1").unwrap()) < d);
    }
}
