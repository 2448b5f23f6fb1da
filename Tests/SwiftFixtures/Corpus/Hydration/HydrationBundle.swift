//
//  HydrationBundle.swift
//  Hydration
//
//  Created by Corpus on 14/03/2026.
//

import WidgetKit
import SwiftUI

@main
struct HydrationBundle: WidgetBundle {
    var body: some Widget {
        HydrationWidget()
    }
}
