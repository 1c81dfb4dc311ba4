from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.open_api_document_openapi import OpenAPIDocumentOpenapi

T = TypeVar("T", bound="OpenAPIDocument")


@_attrs_define
class OpenAPIDocument:
    """An OpenAPI 3.1.0 document.

    Attributes:
        openapi (OpenAPIDocumentOpenapi):
        info (Any): Title, version and description.
        paths (Any): Every operation of the service.
    """

    openapi: OpenAPIDocumentOpenapi
    info: Any
    paths: Any
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        openapi = self.openapi.value

        info = self.info

        paths = self.paths

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "openapi": openapi,
                "info": info,
                "paths": paths,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        openapi = OpenAPIDocumentOpenapi(d.pop("openapi"))

        info = d.pop("info")

        paths = d.pop("paths")

        open_api_document = cls(
            openapi=openapi,
            info=info,
            paths=paths,
        )

        open_api_document.additional_properties = d
        return open_api_document

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
