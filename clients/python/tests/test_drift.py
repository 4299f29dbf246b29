"""The Python client against the service's own OpenAPI document (``/docs-json``), so a wire
change that forgets Python fails CI:

- every record class has exactly the fields of the schema(s) it names, with matching types and
  nullability, and every schema a route answers with has a class;
- every documented route has exactly one client method (and no method calls an undocumented
  route), answering with the class of the documented response;
- every parameter a route documents is a parameter of its method (or the scope), and the
  method sends nothing the route does not document.
"""

from __future__ import annotations

import inspect
import json
import types
import typing
import unittest
import urllib.request
from typing import Any, Union

from atrium_client import AsyncAtrium, Atrium, AtriumAdmin, models
from atrium_client._routes import ADMIN_ROUTES, ROUTES, Route
from atrium_client.models import WireModel, wire_fields

from .support import open_service

Schema = dict[str, Any]

#: Documented routes that are not for an API client, or not in the Python client yet (each says why).
NOT_CLIENT_ROUTES = {
    ("GET", "/metrics"),
}

NDJSON = "application/x-ndjson"

#: Writes belong to the calling agent; ``agent_scope`` narrows reads only, so the write methods
#: do not offer it although the shared scope DTO documents it on them.
READ_ONLY_PARAMETERS = {"agent_scope"}

#: Parameters a method sends that the served document does not describe yet (routes being
#: extended in the same release); each entry is (method name, parameter). Empty when in step.
PENDING: set[tuple[str, str]] = set()

SCOPE_FIELDS = {"read": ["user_id", "workspace_id", "agent_id"], "write": ["user_id", "workspace_id", "agent_id"], "user": ["user_id"], "none": []}


def all_models() -> list[type[WireModel]]:
    found = [c for c in vars(models).values() if isinstance(c, type) and issubclass(c, WireModel) and c is not WireModel]
    return sorted(found, key=lambda c: c.__name__)


def model_for_schema(name: str) -> type[WireModel] | None:
    for cls in all_models():
        if name in cls.WIRE_SCHEMAS:
            return cls
    return None


class Document:
    def __init__(self, raw: Schema) -> None:
        self.raw = raw
        self.schemas: dict[str, Schema] = raw["components"]["schemas"]

    def resolve(self, schema: Schema) -> Schema:
        if "$ref" in schema:
            return self.schemas[schema["$ref"].rsplit("/", 1)[1]]
        if "allOf" in schema and len(schema["allOf"]) == 1:
            return self.resolve(schema["allOf"][0])
        return schema

    @staticmethod
    def ref_name(schema: Schema) -> str | None:
        if "$ref" in schema:
            return schema["$ref"].rsplit("/", 1)[1]
        if "allOf" in schema and len(schema["allOf"]) == 1:
            return Document.ref_name(schema["allOf"][0])
        return None

    def operations(self) -> dict[tuple[str, str], Schema]:
        return {
            (method.upper(), path): operation
            for path, item in self.raw["paths"].items()
            for method, operation in item.items()
            if method in ("get", "post", "put", "patch", "delete")
        }

    def success_schema(self, operation: Schema) -> Schema:
        for status in ("200", "201"):
            response = operation["responses"].get(status)
            if response and "content" in response:
                return response["content"]["application/json"]["schema"]
        raise AssertionError(f"no JSON success response in {operation.get('operationId')}")

    def accepted_parameters(self, operation: Schema) -> set[str]:
        names = {p["name"] for p in operation.get("parameters", []) if p["in"] in ("query", "path")}
        body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
        if body:
            names |= set(self.resolve(body).get("properties", {}))
        return names


def optional_arms(hint: Any) -> tuple[list[Any], bool]:
    """The arms of a union hint, and whether None is one of them."""
    if typing.get_origin(hint) in (Union, types.UnionType):
        args = typing.get_args(hint)
        return [a for a in args if a is not type(None)], type(None) in args
    return [hint], False


def type_problem(doc: Document, schema: Schema, hint: Any) -> str | None:
    """None when the Python hint can hold what the schema describes."""
    arms, _ = optional_arms(hint)
    alternatives = schema.get("oneOf") or schema.get("anyOf")
    if alternatives:
        problems = [type_problem(doc, alternative, hint) for alternative in alternatives]
        return next((p for p in problems if p), None)
    ref = doc.ref_name(schema)
    if ref is not None:
        if any(isinstance(a, type) and issubclass(a, WireModel) and ref in a.WIRE_SCHEMAS for a in arms):
            return None
        return f"expects the class for schema {ref}, has {hint}"
    kind = schema.get("type")
    for arm in arms:
        origin = typing.get_origin(arm)
        if arm is Any:
            return None
        if kind == "string" and (arm is str or origin is typing.Literal):
            return None
        if kind == "integer" and arm is int:
            return None
        if kind == "number" and arm is float:
            return None
        if kind == "boolean" and arm is bool:
            return None
        if kind == "object" and origin is dict:
            return None
        if kind == "array" and origin is list:
            return type_problem(doc, schema.get("items", {}), typing.get_args(arm)[0])
    return f"schema type {kind!r} does not fit {hint}"


class DriftTest(unittest.TestCase):
    doc: Document

    @classmethod
    def setUpClass(cls) -> None:
        with urllib.request.urlopen(open_service().url + "/docs-json", timeout=30) as response:
            cls.doc = Document(json.load(response))

    def test_every_record_class_matches_its_schemas(self) -> None:
        for cls in all_models():
            with self.subTest(cls=cls.__name__):
                self.assertTrue(cls.WIRE_SCHEMAS, f"{cls.__name__} names no schema")
                schemas = [self.doc.schemas.get(name) for name in cls.WIRE_SCHEMAS]
                self.assertNotIn(None, schemas, f"{cls.__name__}: schema missing from /docs-json: {cls.WIRE_SCHEMAS}")
                properties: dict[str, list[Schema]] = {}
                for schema in typing.cast(list[Schema], schemas):
                    for name, prop in schema.get("properties", {}).items():
                        properties.setdefault(name, []).append(prop)
                fields = {f.name: f for f in wire_fields(cls)}
                self.assertEqual(sorted(fields), sorted(properties), f"{cls.__name__} fields differ from {cls.WIRE_SCHEMAS}")
                hints = typing.get_type_hints(cls)
                for name, props in properties.items():
                    in_all = all(name in s.get("required", []) for s in typing.cast(list[Schema], schemas))
                    nullable = any(p.get("nullable") for p in props) or not in_all or len(props) < len(schemas)
                    _, optional = optional_arms(hints[name])
                    self.assertEqual(optional, nullable, f"{cls.__name__}.{name}: Optional in Python is {optional}, nullable/absent on the wire is {nullable}")
                    for prop in props:
                        problem = type_problem(self.doc, prop, hints[name])
                        self.assertIsNone(problem, f"{cls.__name__}.{name}: {problem}")

    def test_every_documented_route_has_one_method_answering_with_its_schema(self) -> None:
        documented = {key: op for key, op in self.doc.operations().items() if key not in NOT_CLIENT_ROUTES}
        routes: dict[tuple[str, str], tuple[str, Route]] = {}
        for name, route in [*ROUTES.items(), *ADMIN_ROUTES.items()]:
            key = (route.method, route.path)
            self.assertNotIn(key, routes, f"two methods for {key}")
            routes[key] = (name, route)
        self.assertEqual(sorted(set(documented) - set(routes)), [], "documented routes without a Python method")
        self.assertEqual(sorted(set(routes) - set(documented)), [], "Python methods for routes /docs-json does not have")
        for key, (name, route) in routes.items():
            with self.subTest(route=key):
                if route.streamed:
                    # NDJSON lines (export): the document has no schema for them, only the type.
                    self.assertIn(NDJSON, documented[key]["responses"]["200"]["content"], f"{name} reads NDJSON")
                    continue
                if route.raw_body is not None:
                    self.assertIn(NDJSON, documented[key]["requestBody"]["content"], f"{name} sends NDJSON")
                ref = self.doc.ref_name(self.doc.success_schema(documented[key]))
                self.assertIn(ref, route.response.WIRE_SCHEMAS, f"{name} decodes {route.response.__name__}, the route answers {ref}")

    def test_every_route_parameter_is_a_method_parameter_and_nothing_else_is_sent(self) -> None:
        operations = self.doc.operations()
        for name, route, owner in [*((n, r, Atrium) for n, r in ROUTES.items()), *((n, r, AtriumAdmin) for n, r in ADMIN_ROUTES.items())]:
            with self.subTest(method=name):
                signature = inspect.signature(getattr(owner, name))
                params = {p for p in signature.parameters if p not in ("self", "scope", route.raw_body)} | set(SCOPE_FIELDS[route.scope])
                documented = self.doc.accepted_parameters(operations[(route.method, route.path)])
                if route.scope in ("write", "user", "none"):
                    documented -= READ_ONLY_PARAMETERS
                self.assertEqual(sorted(documented - params), [], f"{name} cannot send what the route documents")
                extra = {p for p in params - documented if (name, p) not in PENDING}
                self.assertEqual(sorted(extra), [], f"{name} sends parameters the route does not document")

    def test_the_client_classes_call_only_routes_of_the_table(self) -> None:
        for owner, table in ((Atrium, ROUTES), (AsyncAtrium, ROUTES), (AtriumAdmin, ADMIN_ROUTES)):
            methods = {n for n, fn in vars(owner).items() if inspect.isfunction(fn) and not n.startswith("_")}
            self.assertEqual(sorted(methods), sorted(table), owner.__name__)

    def test_pending_entries_are_still_pending(self) -> None:
        operations = self.doc.operations()
        for name, parameter in sorted(PENDING):
            route = ROUTES[name]
            self.assertNotIn(
                parameter,
                self.doc.accepted_parameters(operations[(route.method, route.path)]),
                f"/docs-json now documents {name}({parameter}): remove it from PENDING",
            )


if __name__ == "__main__":
    unittest.main()
