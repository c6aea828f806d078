//! Thin safe wrappers over the raw Node-API calls that value conversion makes
//! in its inner loops. napi-rs's typed layer is used at the API surface; here,
//! where a 5 MB document means a million calls, each wrapper is one call.

use std::borrow::Cow;
use std::ffi::c_char;
use std::ptr;

use napi::sys;
use napi::{Error, Result, Status};
use num_bigint::{BigInt, Sign};

pub type Raw = sys::napi_value;

#[inline]
pub fn check(status: sys::napi_status, what: &str) -> Result<()> {
    if status == sys::Status::napi_ok {
        Ok(())
    } else if status == sys::Status::napi_pending_exception {
        Err(Error::new(Status::PendingException, what.to_owned()))
    } else {
        Err(Error::new(Status::from(status), format!("Node-API call failed: {what}")))
    }
}

/// The JavaScript type of a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Undefined,
    Null,
    Boolean,
    Number,
    String,
    Symbol,
    Object,
    Function,
    External,
    BigInt,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Undefined => "undefined",
            Kind::Null => "null",
            Kind::Boolean => "a boolean",
            Kind::Number => "a number",
            Kind::String => "a string",
            Kind::Symbol => "a symbol",
            Kind::Object => "an object",
            Kind::Function => "a function",
            Kind::External => "an external",
            Kind::BigInt => "a bigint",
        }
    }
}

/// One Node-API environment (the JS thread's).
#[derive(Clone, Copy)]
pub struct Js {
    pub env: sys::napi_env,
}

impl Js {
    pub fn new(env: sys::napi_env) -> Js {
        Js { env }
    }

    pub fn kind(self, v: Raw) -> Result<Kind> {
        let mut t = 0;
        check(unsafe { sys::napi_typeof(self.env, v, &mut t) }, "typeof")?;
        Ok(match t {
            sys::ValueType::napi_undefined => Kind::Undefined,
            sys::ValueType::napi_null => Kind::Null,
            sys::ValueType::napi_boolean => Kind::Boolean,
            sys::ValueType::napi_number => Kind::Number,
            sys::ValueType::napi_string => Kind::String,
            sys::ValueType::napi_symbol => Kind::Symbol,
            sys::ValueType::napi_object => Kind::Object,
            sys::ValueType::napi_function => Kind::Function,
            sys::ValueType::napi_bigint => Kind::BigInt,
            _ => Kind::External,
        })
    }

    pub fn undefined(self) -> Result<Raw> {
        let mut v = ptr::null_mut();
        check(unsafe { sys::napi_get_undefined(self.env, &mut v) }, "undefined")?;
        Ok(v)
    }

    pub fn null(self) -> Result<Raw> {
        let mut v = ptr::null_mut();
        check(unsafe { sys::napi_get_null(self.env, &mut v) }, "null")?;
        Ok(v)
    }

    pub fn boolean(self, b: bool) -> Result<Raw> {
        let mut v = ptr::null_mut();
        check(unsafe { sys::napi_get_boolean(self.env, b, &mut v) }, "boolean")?;
        Ok(v)
    }

    pub fn number(self, n: f64) -> Result<Raw> {
        let mut v = ptr::null_mut();
        check(unsafe { sys::napi_create_double(self.env, n, &mut v) }, "number")?;
        Ok(v)
    }

    pub fn string(self, s: &str) -> Result<Raw> {
        let mut v = ptr::null_mut();
        check(
            unsafe { sys::napi_create_string_utf8(self.env, s.as_ptr() as *const c_char, s.len() as isize, &mut v) },
            "string",
        )?;
        Ok(v)
    }

    /// A string of one-byte characters (ASCII here): copied, not decoded.
    pub fn string_latin1(self, bytes: &[u8]) -> Result<Raw> {
        let mut v = ptr::null_mut();
        check(
            unsafe {
                sys::napi_create_string_latin1(self.env, bytes.as_ptr() as *const c_char, bytes.len() as isize, &mut v)
            },
            "string",
        )?;
        Ok(v)
    }

    /// A string of UTF-16 code units.
    pub fn string_utf16(self, units: &[u16]) -> Result<Raw> {
        let mut v = ptr::null_mut();
        check(
            unsafe { sys::napi_create_string_utf16(self.env, units.as_ptr(), units.len() as isize, &mut v) },
            "string",
        )?;
        Ok(v)
    }

    pub fn object(self) -> Result<Raw> {
        let mut v = ptr::null_mut();
        check(unsafe { sys::napi_create_object(self.env, &mut v) }, "object")?;
        Ok(v)
    }

    pub fn array(self, len: usize) -> Result<Raw> {
        let mut v = ptr::null_mut();
        check(unsafe { sys::napi_create_array_with_length(self.env, len, &mut v) }, "array")?;
        Ok(v)
    }

    pub fn bigint_i64(self, i: i64) -> Result<Raw> {
        let mut v = ptr::null_mut();
        check(unsafe { sys::napi_create_bigint_int64(self.env, i, &mut v) }, "bigint")?;
        Ok(v)
    }

    pub fn bigint(self, i: &BigInt) -> Result<Raw> {
        let mut v = ptr::null_mut();
        let (sign, words) = i.to_u64_digits();
        if words.len() <= 1 {
            let magnitude = words.first().copied().unwrap_or(0);
            if magnitude <= i64::MAX as u64 {
                let signed = if sign == Sign::Minus { -(magnitude as i64) } else { magnitude as i64 };
                check(unsafe { sys::napi_create_bigint_int64(self.env, signed, &mut v) }, "bigint")?;
                return Ok(v);
            }
        }
        let sign_bit = i32::from(sign == Sign::Minus);
        check(
            unsafe { sys::napi_create_bigint_words(self.env, sign_bit, words.len(), words.as_ptr(), &mut v) },
            "bigint",
        )?;
        Ok(v)
    }

    pub fn bytes(self, bytes: &[u8]) -> Result<Raw> {
        // A Buffer: a Uint8Array that prints readably, made with one copy.
        let mut data = ptr::null_mut();
        let mut v = ptr::null_mut();
        check(
            unsafe {
                sys::napi_create_buffer_copy(self.env, bytes.len(), bytes.as_ptr() as *const _, &mut data, &mut v)
            },
            "buffer",
        )?;
        Ok(v)
    }

    pub fn set(self, object: Raw, key: Raw, value: Raw) -> Result<()> {
        check(unsafe { sys::napi_set_property(self.env, object, key, value) }, "set property")
    }

    /// Defines an own data property: unlike a plain set, `__proto__` becomes a
    /// member rather than the object's prototype.
    pub fn define(self, object: Raw, key: Raw, value: Raw) -> Result<()> {
        let descriptor = sys::napi_property_descriptor {
            utf8name: ptr::null(),
            name: key,
            method: None,
            getter: None,
            setter: None,
            value,
            attributes: sys::PropertyAttributes::writable
                | sys::PropertyAttributes::enumerable
                | sys::PropertyAttributes::configurable,
            data: ptr::null_mut(),
        };
        check(unsafe { sys::napi_define_properties(self.env, object, 1, &descriptor) }, "define property")
    }

    /// Sets a member named by Rust text, defining it when it is `__proto__`.
    pub fn set_member(self, object: Raw, key: Raw, name: &str, value: Raw) -> Result<()> {
        if name == "__proto__" {
            self.define(object, key, value)
        } else {
            self.set(object, key, value)
        }
    }

    pub fn set_index(self, array: Raw, index: usize, value: Raw) -> Result<()> {
        check(unsafe { sys::napi_set_element(self.env, array, index as u32, value) }, "set element")
    }

    pub fn get(self, object: Raw, key: Raw) -> Result<Raw> {
        let mut v = ptr::null_mut();
        check(unsafe { sys::napi_get_property(self.env, object, key, &mut v) }, "get property")?;
        Ok(v)
    }

    pub fn get_named(self, object: Raw, name: &str) -> Result<Raw> {
        let key = self.string(name)?;
        self.get(object, key)
    }

    pub fn has_own(self, object: Raw, key: Raw) -> Result<bool> {
        let mut b = false;
        check(unsafe { sys::napi_has_own_property(self.env, object, key, &mut b) }, "has own property")?;
        Ok(b)
    }

    /// JavaScript's `===`.
    pub fn strict_equals(self, a: Raw, b: Raw) -> Result<bool> {
        let mut b_ = false;
        check(unsafe { sys::napi_strict_equals(self.env, a, b, &mut b_) }, "strict equals")?;
        Ok(b_)
    }

    /// `Object.prototype`.
    pub fn object_prototype(self) -> Result<Raw> {
        let mut global = ptr::null_mut();
        check(unsafe { sys::napi_get_global(self.env, &mut global) }, "global")?;
        let object = self.get_named(global, "Object")?;
        self.get_named(object, "prototype")
    }

    pub fn get_index(self, array: Raw, index: usize) -> Result<Raw> {
        let mut v = ptr::null_mut();
        check(unsafe { sys::napi_get_element(self.env, array, index as u32, &mut v) }, "get element")?;
        Ok(v)
    }

    pub fn is_array(self, v: Raw) -> Result<bool> {
        let mut b = false;
        check(unsafe { sys::napi_is_array(self.env, v, &mut b) }, "is array")?;
        Ok(b)
    }

    pub fn array_len(self, v: Raw) -> Result<usize> {
        let mut n = 0u32;
        check(unsafe { sys::napi_get_array_length(self.env, v, &mut n) }, "array length")?;
        Ok(n as usize)
    }

    /// Own enumerable string keys, in property order.
    pub fn own_keys(self, object: Raw) -> Result<Raw> {
        let mut v = ptr::null_mut();
        check(
            unsafe {
                sys::napi_get_all_property_names(
                    self.env,
                    object,
                    sys::KeyCollectionMode::own_only,
                    sys::KeyFilter::enumerable | sys::KeyFilter::skip_symbols,
                    sys::KeyConversion::numbers_to_strings,
                    &mut v,
                )
            },
            "own keys",
        )?;
        Ok(v)
    }

    pub fn get_bool(self, v: Raw) -> Result<bool> {
        let mut b = false;
        check(unsafe { sys::napi_get_value_bool(self.env, v, &mut b) }, "boolean value")?;
        Ok(b)
    }

    pub fn get_f64(self, v: Raw) -> Result<f64> {
        let mut n = 0.0;
        check(unsafe { sys::napi_get_value_double(self.env, v, &mut n) }, "number value")?;
        Ok(n)
    }

    pub fn get_string(self, v: Raw) -> Result<String> {
        let mut len = 0usize;
        check(unsafe { sys::napi_get_value_string_utf8(self.env, v, ptr::null_mut(), 0, &mut len) }, "string length")?;
        let mut buf: Vec<u8> = Vec::with_capacity(len + 1);
        let mut written = 0usize;
        check(
            unsafe {
                sys::napi_get_value_string_utf8(self.env, v, buf.as_mut_ptr() as *mut c_char, len + 1, &mut written)
            },
            "string value",
        )?;
        unsafe { buf.set_len(written) };
        // Node-API writes lone surrogates as U+FFFD, so this is UTF-8; a text
        // holding one is caught before (see `has_lone_surrogate`).
        Ok(String::from_utf8(buf).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
    }

    /// A string as [`Js::get_string`] gives it, in one pass over it: the
    /// length in UTF-16 units is known at once, and UTF-8 takes at most three
    /// bytes for each, where asking for the UTF-8 length first is a pass of
    /// its own. For a text read once (its buffer is up to three times its
    /// size), not for strings that are kept.
    pub fn get_text(self, v: Raw) -> Result<String> {
        let mut units = 0usize;
        check(
            unsafe { sys::napi_get_value_string_utf16(self.env, v, ptr::null_mut(), 0, &mut units) },
            "string length",
        )?;
        let len = units * 3;
        let mut buf: Vec<u8> = Vec::with_capacity(len + 1);
        let mut written = 0usize;
        check(
            unsafe {
                sys::napi_get_value_string_utf8(self.env, v, buf.as_mut_ptr() as *mut c_char, len + 1, &mut written)
            },
            "string value",
        )?;
        unsafe { buf.set_len(written) };
        Ok(String::from_utf8(buf).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
    }

    /// The UTF-16 code units of a string, for checking lone surrogates, which
    /// no Flow Text holds and UTF-8 conversion would silently replace.
    pub fn has_lone_surrogate(self, v: Raw) -> Result<bool> {
        let mut len = 0usize;
        check(unsafe { sys::napi_get_value_string_utf16(self.env, v, ptr::null_mut(), 0, &mut len) }, "string length")?;
        let mut buf: Vec<u16> = Vec::with_capacity(len + 1);
        let mut written = 0usize;
        check(
            unsafe { sys::napi_get_value_string_utf16(self.env, v, buf.as_mut_ptr(), len + 1, &mut written) },
            "string value",
        )?;
        unsafe { buf.set_len(written) };
        Ok(char::decode_utf16(buf.iter().copied()).any(|r| r.is_err()))
    }

    pub fn get_bigint(self, v: Raw) -> Result<BigInt> {
        let mut sign = 0i32;
        let mut count = 0usize;
        check(
            // With both sign and words null, only the count is written.
            unsafe { sys::napi_get_value_bigint_words(self.env, v, ptr::null_mut(), &mut count, ptr::null_mut()) },
            "bigint size",
        )?;
        let mut words = vec![0u64; count.max(1)];
        check(
            unsafe { sys::napi_get_value_bigint_words(self.env, v, &mut sign, &mut count, words.as_mut_ptr()) },
            "bigint words",
        )?;
        words.truncate(count);
        let magnitude = num_bigint::BigUint::from_slice(
            &words.iter().flat_map(|w| [*w as u32, (*w >> 32) as u32]).collect::<Vec<u32>>(),
        );
        Ok(BigInt::from_biguint(if sign == 1 { Sign::Minus } else { Sign::Plus }, magnitude))
    }

    /// The bytes of a Uint8Array (or Buffer), copied; `None` for anything else.
    pub fn uint8_array(self, v: Raw) -> Result<Option<Vec<u8>>> {
        // SAFETY: copied at once, before any JavaScript runs.
        Ok(unsafe { self.uint8_slice(v) }?.map(Cow::into_owned))
    }

    /// The bytes of a Uint8Array (or Buffer): borrowed, not copied, over an
    /// ArrayBuffer (a text to decode is read where it lies: a copy of 16 MiB
    /// would count against the memory a refusal may cost, issue 8); copied
    /// over a SharedArrayBuffer, which another thread may write while they
    /// are read. `None` for anything else.
    ///
    /// # Safety
    ///
    /// Borrowed bytes are valid while `v` is alive and no JavaScript value is
    /// created and no JavaScript runs (which could detach or resize the
    /// buffer, and a small array's bytes may live on the JavaScript heap,
    /// which moves): use them within one native call before either.
    pub unsafe fn uint8_slice<'a>(self, v: Raw) -> Result<Option<Cow<'a, [u8]>>> {
        let mut is = false;
        check(unsafe { sys::napi_is_typedarray(self.env, v, &mut is) }, "is typed array")?;
        if !is {
            return Ok(None);
        }
        let mut kind = 0;
        let mut len = 0usize;
        let mut data = ptr::null_mut();
        let mut buffer = ptr::null_mut();
        let mut offset = 0usize;
        check(
            unsafe {
                sys::napi_get_typedarray_info(self.env, v, &mut kind, &mut len, &mut data, &mut buffer, &mut offset)
            },
            "typed array info",
        )?;
        if kind != sys::TypedarrayType::uint8_array {
            return Ok(None);
        }
        if len == 0 {
            return Ok(Some(Cow::Borrowed(&[])));
        }
        let bytes = unsafe { std::slice::from_raw_parts(data as *const u8, len) };
        let mut unshared = false;
        check(unsafe { sys::napi_is_arraybuffer(self.env, buffer, &mut unshared) }, "is array buffer")?;
        Ok(Some(if unshared { Cow::Borrowed(bytes) } else { Cow::Owned(bytes.to_vec()) }))
    }

    pub fn instance_of(self, v: Raw, constructor: Raw) -> Result<bool> {
        let mut b = false;
        check(unsafe { sys::napi_instanceof(self.env, v, constructor, &mut b) }, "instanceof")?;
        Ok(b)
    }

    pub fn new_instance(self, constructor: Raw, args: &[Raw]) -> Result<Raw> {
        let mut v = ptr::null_mut();
        check(unsafe { sys::napi_new_instance(self.env, constructor, args.len(), args.as_ptr(), &mut v) }, "new")?;
        Ok(v)
    }

    pub fn call(self, function: Raw, this: Raw, args: &[Raw]) -> Result<Raw> {
        let mut v = ptr::null_mut();
        check(unsafe { sys::napi_call_function(self.env, this, function, args.len(), args.as_ptr(), &mut v) }, "call")?;
        Ok(v)
    }

    pub fn reference(self, v: Raw) -> Result<sys::napi_ref> {
        let mut r = ptr::null_mut();
        check(unsafe { sys::napi_create_reference(self.env, v, 1, &mut r) }, "reference")?;
        Ok(r)
    }

    pub fn deref(self, r: sys::napi_ref) -> Result<Raw> {
        let mut v = ptr::null_mut();
        check(unsafe { sys::napi_get_reference_value(self.env, r, &mut v) }, "reference value")?;
        Ok(v)
    }

    /// Throws `value` and returns the error that tells napi-rs an exception is pending.
    pub fn throw(self, value: Raw) -> Error {
        unsafe { sys::napi_throw(self.env, value) };
        Error::new(Status::PendingException, "thrown".to_owned())
    }
}

/// A raw value returned from a `#[napi]` function as is.
pub struct Out(pub Raw);

impl napi::bindgen_prelude::ToNapiValue for Out {
    unsafe fn to_napi_value(_env: sys::napi_env, val: Self) -> Result<Raw> {
        Ok(val.0)
    }
}

impl napi::bindgen_prelude::TypeName for Out {
    fn type_name() -> &'static str {
        "unknown"
    }
    fn value_type() -> napi::ValueType {
        napi::ValueType::Unknown
    }
}

/// A raw argument taken as is; its TypeScript type is given on the function.
pub struct In(pub Raw);

impl napi::bindgen_prelude::FromNapiValue for In {
    unsafe fn from_napi_value(_env: sys::napi_env, value: Raw) -> Result<Self> {
        Ok(In(value))
    }
}

impl napi::bindgen_prelude::TypeName for In {
    fn type_name() -> &'static str {
        "unknown"
    }
    fn value_type() -> napi::ValueType {
        napi::ValueType::Unknown
    }
}

impl napi::bindgen_prelude::ValidateNapiValue for In {}
