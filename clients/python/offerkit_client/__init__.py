"""A client library for accessing OfferKit signing service"""

from .client import AuthenticatedClient, Client
from .errors import ProblemError, UnexpectedStatus

__all__ = (
    "AuthenticatedClient",
    "Client",
    "ProblemError",
    "UnexpectedStatus",
)
