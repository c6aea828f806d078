//! Signatures and fingerprints (`host-boundary.md`, "Identity and
//! fingerprints" and "The Tool process protocol"; `decisions.md` sections 4, 7
//! and 8).
//!
//! A Tool's signature is `{"params": [[name, schema], ...], "ok": schema,
//! "err": schema, "generic": [names]}`, each schema standalone. Its fingerprint
//! hashes the canonical text of the canonical form, which names types without
//! `@VERSION` and holds no doc comments: so the fingerprint moves with the
//! shape of the signature and nothing else.

use sha2::{Digest, Sha256};

use crate::error::Result;
use crate::json::Json;
use crate::schema::{schema_of, SchemaForm};
use crate::types::{Declarations, ToolDecl};

/// The signature of `tool` in `form`. A refusal is placed at the member of the
/// signature whose schema failed: `$.params[1]`, `$.ok` or `$.err`.
pub fn signature(tool: &ToolDecl, declarations: &Declarations, form: SchemaForm) -> Result<Json> {
    let schema = |term| schema_of(term, declarations, form, &tool.generic);
    let mut params = Vec::with_capacity(tool.params.len());
    for (i, param) in tool.params.iter().enumerate() {
        // Parameters are not record fields: an Option parameter keeps the
        // ordinary Option schema (decisions.md section 1).
        let param_schema = schema(&param.ty).map_err(|e| e.under_index(i).under_key("params"))?;
        params.push(Json::Array(vec![Json::str(param.name.as_str()), param_schema]));
    }
    Ok(Json::object([
        ("params", Json::Array(params)),
        ("ok", schema(&tool.ok).map_err(|e| e.under_key("ok"))?),
        ("err", schema(&tool.err).map_err(|e| e.under_key("err"))?),
        ("generic", Json::Array(tool.generic.iter().map(|name| Json::str(name.as_str())).collect())),
    ]))
}

/// `sha256:` and the lowercase hex SHA-256 of the canonical text of the
/// canonical signature.
pub fn fingerprint(tool: &ToolDecl, declarations: &Declarations) -> Result<String> {
    let canonical = signature(tool, declarations, SchemaForm::Canonical)?;
    Ok(sha256_fingerprint(canonical.to_canonical().as_bytes()))
}

/// One entry of the `describe` response: `{"tool", "fingerprint",
/// "signature"}`, the signature in the describe form (descriptions and
/// versions included) so that it can be read; binding goes by the fingerprint.
pub fn describe_entry(tool: &ToolDecl, declarations: &Declarations) -> Result<Json> {
    Ok(Json::object([
        ("tool", Json::str(tool.tool.as_str())),
        ("fingerprint", Json::String(fingerprint(tool, declarations)?)),
        ("signature", signature(tool, declarations, SchemaForm::Describe)?),
    ]))
}

fn sha256_fingerprint(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity("sha256:".len() + 2 * digest.len());
    out.push_str("sha256:");
    for byte in digest.iter() {
        out.push(HEX[usize::from(byte >> 4)] as char);
        out.push(HEX[usize::from(byte & 0xf)] as char);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_is_lowercase_sha256() {
        // FIPS 180-2 test vector for "abc".
        assert_eq!(
            sha256_fingerprint(b"abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
