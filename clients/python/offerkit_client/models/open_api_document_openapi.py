from enum import StrEnum


class OpenAPIDocumentOpenapi(StrEnum):
    VALUE_0 = "3.1.0"

    def __str__(self) -> str:
        return str(self.value)
