//
//  ErrandsBundle.swift
//  Errands
//

import WidgetKit
import SwiftUI

@main
struct ErrandsBundle: WidgetBundle {
    var body: some Widget {
        ErrandsWidget()
    }
}
