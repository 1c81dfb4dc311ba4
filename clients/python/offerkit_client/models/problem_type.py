from enum import StrEnum


class ProblemType(StrEnum):
    URNOFFERKITPROBLEMBAD_REQUEST = "urn:offerkit:problem:bad-request"
    URNOFFERKITPROBLEMBODY_TIMEOUT = "urn:offerkit:problem:body-timeout"
    URNOFFERKITPROBLEMBODY_TOO_LARGE = "urn:offerkit:problem:body-too-large"
    URNOFFERKITPROBLEMFORBIDDEN = "urn:offerkit:problem:forbidden"
    URNOFFERKITPROBLEMINTERNAL_ERROR = "urn:offerkit:problem:internal-error"
    URNOFFERKITPROBLEMINVALID_CAMPAIGN = "urn:offerkit:problem:invalid-campaign"
    URNOFFERKITPROBLEMINVALID_FIELD = "urn:offerkit:problem:invalid-field"
    URNOFFERKITPROBLEMLEDGER_UNAVAILABLE = "urn:offerkit:problem:ledger-unavailable"
    URNOFFERKITPROBLEMMALFORMED_JSON = "urn:offerkit:problem:malformed-json"
    URNOFFERKITPROBLEMMETHOD_NOT_ALLOWED = "urn:offerkit:problem:method-not-allowed"
    URNOFFERKITPROBLEMNOTHING_TO_ASSIGN = "urn:offerkit:problem:nothing-to-assign"
    URNOFFERKITPROBLEMNOT_CONFIGURED = "urn:offerkit:problem:not-configured"
    URNOFFERKITPROBLEMNOT_FOUND = "urn:offerkit:problem:not-found"
    URNOFFERKITPROBLEMNO_CODE_LEFT = "urn:offerkit:problem:no-code-left"
    URNOFFERKITPROBLEMOFFER_INACTIVE = "urn:offerkit:problem:offer-inactive"
    URNOFFERKITPROBLEMRATE_LIMITED = "urn:offerkit:problem:rate-limited"
    URNOFFERKITPROBLEMTIMEOUT = "urn:offerkit:problem:timeout"
    URNOFFERKITPROBLEMUNAUTHORIZED = "urn:offerkit:problem:unauthorized"
    URNOFFERKITPROBLEMUNAVAILABLE = "urn:offerkit:problem:unavailable"
    URNOFFERKITPROBLEMUNKNOWN_APP = "urn:offerkit:problem:unknown-app"
    URNOFFERKITPROBLEMUNKNOWN_CAMPAIGN = "urn:offerkit:problem:unknown-campaign"
    URNOFFERKITPROBLEMUNKNOWN_OFFER = "urn:offerkit:problem:unknown-offer"
    URNOFFERKITPROBLEMUNSUPPORTED_MEDIA_TYPE = "urn:offerkit:problem:unsupported-media-type"
    URNOFFERKITPROBLEMUNVERIFIED_REQUEST = "urn:offerkit:problem:unverified-request"

    def __str__(self) -> str:
        return str(self.value)
