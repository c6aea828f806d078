// Reads TypeScript declarations (stdin) with the TypeScript compiler's own parser and
// writes the tools they declare as IR dicts (stdout, one JSON document):
//   {"tools": [...], "warnings": [[tool, path, message], ...]}
// or {"error": message, "line": n}. Called by toolform/loaders/typescript.py.
"use strict";

const fs = require("fs");
let ts;
try {
  ts = require(process.env.TOOLFORM_TYPESCRIPT || "typescript");
} catch (err) {
  process.stdout.write(JSON.stringify({ error: "the typescript package is not installed where Node can find it (npm install typescript, or set TOOLFORM_TYPESCRIPT to its folder)", line: null }));
  process.exit(0);
}

class Refusal extends Error {
  constructor(message, node) {
    super(message);
    this.node = node;
  }
}

const source = fs.readFileSync(0, "utf8");
const file = ts.createSourceFile("tools.ts", source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
const warnings = [];

function lineOf(node) {
  return file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
}

function squash(text) {
  return (text || "").split(/\s+/).filter(Boolean).join(" ");
}

function docOf(node) {
  let description = "";
  const params = {};
  let returns = "";
  for (const part of ts.getJSDocCommentsAndTags(node)) {
    if (ts.isJSDoc(part)) {
      description = squash(ts.getTextOfJSDocComment(part.comment));
      for (const tag of part.tags || []) {
        const text = squash(ts.getTextOfJSDocComment(tag.comment)).replace(/^- /, "");
        if (ts.isJSDocParameterTag(tag)) params[tag.name.getText(file)] = text;
        else if (tag.tagName.text === "returns" || tag.tagName.text === "return") returns = text;
      }
    }
  }
  return { description, params, returns };
}

// Declarations a type reference may name: interfaces, type aliases, enums.
const declared = new Map();
const functions = [];
for (const statement of file.statements) {
  if (ts.isFunctionDeclaration(statement) && statement.name) functions.push(statement);
  else if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement)) {
    declared.set(statement.name.text, statement);
  }
}

function literalValue(node) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return { ok: true, value: node.text };
  if (ts.isNumericLiteral(node)) return { ok: true, value: Number(node.text) };
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand)) {
    return { ok: true, value: -Number(node.operand.text) };
  }
  if (node.kind === ts.SyntaxKind.TrueKeyword) return { ok: true, value: true };
  if (node.kind === ts.SyntaxKind.FalseKeyword) return { ok: true, value: false };
  if (node.kind === ts.SyntaxKind.NullKeyword) return { ok: true, value: null };
  if (ts.isArrayLiteralExpression(node)) {
    const out = [];
    for (const element of node.elements) {
      const v = literalValue(element);
      if (!v.ok) return v;
      out.push(v.value);
    }
    return { ok: true, value: out };
  }
  if (ts.isObjectLiteralExpression(node)) {
    const out = {};
    for (const property of node.properties) {
      if (!ts.isPropertyAssignment(property)) return { ok: false };
      const v = literalValue(property.initializer);
      if (!v.ok) return v;
      out[property.name.getText(file).replace(/^["']|["']$/g, "")] = v.value;
    }
    return { ok: true, value: out };
  }
  return { ok: false };
}

function isNullish(node) {
  return node.kind === ts.SyntaxKind.UndefinedKeyword || node.kind === ts.SyntaxKind.NullKeyword ||
    (ts.isLiteralTypeNode(node) && node.literal.kind === ts.SyntaxKind.NullKeyword);
}

// The literal a literal type holds, or undefined.
function literalOf(node) {
  if (!ts.isLiteralTypeNode(node)) return undefined;
  const v = literalValue(node.literal);
  return v.ok && v.value !== null ? v.value : undefined;
}

function baseOf(value) {
  return typeof value === "string" ? "string" : typeof value === "boolean" ? "boolean" : "number";
}

// The most type nodes the reading may make (the caller's schema node limit), and how many it made.
const maxTypeNodes = Number(process.argv[2]) || 200000;
let typeNodes = 0;

class TooLarge extends Error {}

class Reader {
  constructor(tool) {
    this.tool = tool;
    this.stack = [];
  }

  warn(path, message) {
    warnings.push([this.tool, path, message]);
  }

  // A type node as an IR type; `nullable.value` is set when a union admitted null or undefined.
  type(node, path, nullable) {
    // Aliases are inlined, so a few lines may expand exponentially: every node read is counted.
    if (++typeNodes > maxTypeNodes) throw new TooLarge();
    if (ts.isParenthesizedTypeNode(node)) return this.type(node.type, path, nullable);
    if (ts.isTypeOperatorNode(node) && node.operator === ts.SyntaxKind.ReadonlyKeyword) return this.type(node.type, path, nullable);
    switch (node.kind) {
      case ts.SyntaxKind.StringKeyword: return { kind: "string" };
      case ts.SyntaxKind.NumberKeyword: return { kind: "number" };
      case ts.SyntaxKind.BigIntKeyword: return { kind: "integer" };
      case ts.SyntaxKind.BooleanKeyword: return { kind: "boolean" };
      case ts.SyntaxKind.AnyKeyword:
      case ts.SyntaxKind.UnknownKeyword: return { kind: "any" };
      case ts.SyntaxKind.ObjectKeyword: return { kind: "object" };
      case ts.SyntaxKind.NullKeyword:
      case ts.SyntaxKind.UndefinedKeyword:
      case ts.SyntaxKind.VoidKeyword: return { kind: "null" };
      case ts.SyntaxKind.NeverKeyword: throw new Refusal("the type never has no values; a parameter cannot take it", node);
    }
    if (ts.isLiteralTypeNode(node)) {
      if (node.literal.kind === ts.SyntaxKind.NullKeyword) return { kind: "null" };
      const value = literalOf(node);
      if (value === undefined) throw new Refusal(`the literal type ${node.getText(file)} is not a JSON value`, node);
      return { kind: "enum", enum_values: [value], base: baseOf(value) };
    }
    if (ts.isArrayTypeNode(node)) return { kind: "array", item: this.type(node.elementType, `${path}[*]`, {}) };
    if (ts.isTupleTypeNode(node)) return this.tuple(node, path);
    if (ts.isTypeLiteralNode(node)) return this.members(node.members, path, node);
    if (ts.isUnionTypeNode(node)) return this.union(node, path, nullable);
    if (ts.isIntersectionTypeNode(node)) return this.intersection(node, path);
    if (ts.isTypeReferenceNode(node)) return this.reference(node, path, nullable);
    if (ts.isFunctionTypeNode(node)) throw new Refusal("a function type cannot be sent as JSON", node);
    throw new Refusal(`the type ${node.getText(file)} is not supported in a tool's parameters`, node);
  }

  tuple(node, path) {
    const members = [];
    const seen = new Set();
    for (const element of node.elements) {
      const inner = ts.isNamedTupleMember(element) ? element.type : element;
      const t = this.type(inner, `${path}[*]`, {});
      const key = JSON.stringify(t);
      if (!seen.has(key)) {
        seen.add(key);
        members.push(t);
      }
    }
    this.warn(path, "a tuple is read as an array of its members' union, with its length as min_items and max_items; each place's own type is lost");
    const item = members.length === 1 ? members[0] : { kind: "union", union_of: members };
    const n = node.elements.length;
    return { kind: "array", item, constraints: { min_items: n, max_items: n } };
  }

  members(members, path, node) {
    const fields = [];
    let indexed = false;
    for (const member of members) {
      if (ts.isPropertySignature(member) && member.type) {
        const name = member.name.getText(file).replace(/^["']|["']$/g, "");
        const nullable = {};
        const field = { name, type: this.type(member.type, `${path}.${name}`, nullable), required: !member.questionToken && !nullable.value };
        const doc = docOf(member).description;
        if (doc) field.description = doc;
        fields.push(field);
      } else if (ts.isIndexSignatureDeclaration(member)) {
        indexed = true;
      } else {
        this.warn(path, `the member ${member.getText(file).split("\n")[0]} is not a property with a type; dropped`);
      }
    }
    if (indexed) this.warn(path, "an index signature ({[key: string]: T}) is read as an object with no fields; its value type is lost");
    return fields.length ? { kind: "object", fields } : { kind: "object" };
  }

  union(node, path, nullable) {
    const kept = node.types.filter((t) => !isNullish(t));
    if (kept.length < node.types.length) nullable.value = true;
    if (kept.length === 0) return { kind: "null" };
    if (kept.length === 1) return this.type(kept[0], path, nullable);
    const literals = kept.map(literalOf);
    if (literals.every((v) => v !== undefined)) {
      const bases = new Set(literals.map(baseOf));
      if (bases.size === 1) {
        const base = [...bases][0];
        if (base === "boolean" && literals.length === 2 && literals[0] !== literals[1]) return { kind: "boolean" };
        return { kind: "enum", enum_values: literals, base };
      }
    }
    return { kind: "union", union_of: kept.map((t, i) => this.type(t, `${path}|${i}`, {})) };
  }

  intersection(node, path) {
    const fields = [];
    for (const part of node.types) {
      const t = this.type(part, path, {});
      if (t.kind !== "object") throw new Refusal("an intersection of types that are not objects cannot be read", part);
      for (const f of t.fields || []) {
        const at = fields.findIndex((g) => g.name === f.name);
        if (at >= 0) fields[at] = f;
        else fields.push(f);
      }
    }
    return fields.length ? { kind: "object", fields } : { kind: "object" };
  }

  reference(node, path, nullable) {
    const name = node.typeName.getText(file);
    const args = node.typeArguments || [];
    if (name === "integer") return { kind: "integer" };
    if (name === "Date") return { kind: "string", constraints: { format: "date-time" } };
    if ((name === "Array" || name === "ReadonlyArray") && args.length === 1) {
      return { kind: "array", item: this.type(args[0], `${path}[*]`, {}) };
    }
    if (name === "Promise" && args.length === 1) return this.type(args[0], path, nullable);
    if (name === "Record") {
      this.warn(path, "Record<K, V> is read as an object with no fields; its key and value types are lost");
      return { kind: "object" };
    }
    return this.named(name, node, path, nullable);
  }

  named(name, node, path, nullable) {
    const declaration = declared.get(name);
    if (!declaration) throw new Refusal(`unknown type '${name}'; declare it in the file (imported types are not supported)`, node);
    if (this.stack.includes(name)) {
      this.warn(path, `the type '${name}' refers to itself: a recursive type cannot be inlined, so it is read as an object with no fields here`);
      return { kind: "object" };
    }
    this.stack.push(name);
    try {
      if (ts.isInterfaceDeclaration(declaration)) {
        const inherited = [];
        for (const clause of declaration.heritageClauses || []) {
          for (const parent of clause.types) {
            const t = this.named(parent.expression.getText(file), parent, path, {});
            inherited.push(...(t.fields || []));
          }
        }
        const own = this.members(declaration.members, path, declaration).fields || [];
        const fields = inherited.filter((f) => !own.some((g) => g.name === f.name)).concat(own);
        return fields.length ? { kind: "object", fields } : { kind: "object" };
      }
      if (ts.isTypeAliasDeclaration(declaration)) return this.type(declaration.type, path, nullable);
      return this.enumeration(declaration);
    } finally {
      this.stack.pop();
    }
  }

  enumeration(declaration) {
    const values = [];
    let next = 0;
    for (const member of declaration.members) {
      if (member.initializer) {
        const v = literalValue(member.initializer);
        if (!v.ok || v.value === null) throw new Refusal(`the enum member ${member.name.getText(file)} has a value that is not a literal`, member);
        values.push(v.value);
        if (typeof v.value === "number") next = v.value + 1;
      } else {
        values.push(next);
        next += 1;
      }
    }
    const bases = new Set(values.map(baseOf));
    if (bases.size !== 1) throw new Refusal(`the enum ${declaration.name.text} mixes strings and numbers`, declaration);
    return { kind: "enum", enum_values: values, base: [...bases][0] };
  }
}

function tool(declaration) {
  const name = declaration.name.text;
  const doc = docOf(declaration);
  const reader = new Reader(name);
  const params = [];
  for (const parameter of declaration.parameters) {
    if (!ts.isIdentifier(parameter.name)) throw new Refusal("a destructured parameter has no name to show the model; name it", parameter);
    if (parameter.dotDotDotToken) throw new Refusal(`function '${name}': rest parameters are not supported (a model sends named arguments)`, parameter);
    const pname = parameter.name.text;
    const nullable = {};
    const type = parameter.type ? reader.type(parameter.type, `$.${pname}`, nullable) : { kind: "any" };
    if (!parameter.type) reader.warn(`$.${pname}`, "the parameter has no type annotation; read as any value");
    const param = { name: pname, type, required: !parameter.questionToken && !parameter.initializer && !nullable.value && !parameter.dotDotDotToken };
    if (doc.params[pname]) param.description = doc.params[pname];
    if (parameter.initializer) {
      // As the reference: a string, number or boolean literal is a default; anything else is not read.
      const v = literalValue(parameter.initializer);
      const scalar = v.ok && v.value !== null && typeof v.value !== "object";
      if (scalar) param.default = v.value;
      else if (!(v.ok && v.value === null)) reader.warn(`$.${pname}`, `the default ${parameter.initializer.getText(file)} is not a string, number or boolean literal; dropped`);
    }
    params.push(param);
  }
  const out = { name, description: doc.description, params, domain: "user", category: "user", origin: "user" };
  if (declaration.type) {
    const returns = returnType(reader, declaration.type);
    if (returns) out.returns = returns;
  }
  if (doc.returns) out.returns_description = doc.returns;
  return out;
}

function returnType(reader, node) {
  // The reference leaves out a return type it cannot read; so does this, with a warning.
  try {
    const t = reader.type(node, "$ (returns)", {});
    return t.kind === "null" ? null : t;
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    reader.warn("$ (returns)", `the return type is not read: ${err.message}`);
    return null;
  }
}

function main() {
  const syntax = ts.transpileModule(source, { reportDiagnostics: true, compilerOptions: { noEmit: true } }).diagnostics || [];
  if (syntax.length) {
    const first = syntax[0];
    const line = first.start === undefined ? null : file.getLineAndCharacterOfPosition(first.start).line + 1;
    return { error: `TypeScript syntax error: ${ts.flattenDiagnosticMessageText(first.messageText, " ")}`, line };
  }
  if (!functions.length) return { error: "no function declarations found; declare each tool as a function (declare function name(arg: type): result;)", line: null };
  const seen = new Map();
  for (const f of functions) {
    if (seen.has(f.name.text)) {
      return { error: `function '${f.name.text}' is declared more than once (overloads are not supported: a model sees one signature per tool)`, line: lineOf(f) };
    }
    seen.set(f.name.text, f);
  }
  try {
    return { tools: functions.map(tool), warnings };
  } catch (err) {
    if (err instanceof TooLarge) return { too_large: maxTypeNodes };
    // Too deep a chain of aliases overflows the stack: said in a sentence, never with the stack and its paths.
    if (err instanceof RangeError) return { error: "the declarations nest too deeply to read (a chain of type aliases or generics thousands deep); flatten them", line: null };
    if (!(err instanceof Refusal)) throw err;
    return { error: err.message, line: err.node && err.node.getStart ? file.getLineAndCharacterOfPosition(err.node.getStart(file)).line + 1 : null };
  }
}

process.stdout.write(JSON.stringify(main()));
