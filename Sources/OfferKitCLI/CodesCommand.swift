import ArgumentParser

/// `offerkit codes …`: offer-code campaigns from a file to App Store Connect requests and to the
/// codes marketing hands out.
struct CodesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codes",
        abstract:
            "Offer-code campaigns: validate, plan App Store Connect requests, generate, import, hand out and export codes.",
        discussion: """
            A campaign file (JSON) names the app and its offers; see docs/offer-codes.md. The ledger \
            (--ledger, OFFERKIT_LEDGER, default ./offerkit-ledger.sqlite) remembers every campaign, offer and \
            code, so no later campaign reuses a code and any run can be exported again.

            Typical order: validate, generate (custom codes; records batches), apply (creates everything in App \
            Store Connect and imports Apple's one-time-use codes; or plan, to send the requests yourself, then \
            import), export. Handing out: export --recipients FILE (a code for each \
            recipient), claim (one at a time), status (what is left); each code handed out is recorded, so a \
            one-time-use code never goes to two recipients.
            """,
        subcommands: [
            CodesValidate.self, CodesPlan.self, CodesGenerate.self, CodesApply.self, CodesFetch.self, CodesImport.self,
            CodesExport.self,
            CodesClaim.self, CodesStatus.self, CodesDeactivate.self, CodesLedger.self, CodesLookup.self,
        ]
    )
}
