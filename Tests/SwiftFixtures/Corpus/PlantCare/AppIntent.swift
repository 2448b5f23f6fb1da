//
//  AppIntent.swift
//  PlantCare
//

import WidgetKit
import AppIntents

struct WaterPlantIntent: AppIntent {
    static var title: LocalizedStringResource = "Water Plant"

    @Parameter(title: "Plant")
    var plantName: String

    init() {}

    init(plantName: String) {
        self.plantName = plantName
    }

    func perform() async throws -> some IntentResult {
        Garden.shared.water(plantName)
        return .result()
    }
}
