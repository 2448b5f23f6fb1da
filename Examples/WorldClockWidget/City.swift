import FoundationEssentials
import OpenWidgetKit

/// The cities a clock can show: a built-in list (as Apple's Clock app has its own), each with
/// the IANA zone whose rules it follows. An `AppEnum`, so the Edit Widget form shows a menu.
/// Pure data; any thread.
enum City: String, AppEnum, CaseIterable {
    case honolulu, anchorage, cupertino, losAngeles, vancouver, denver, phoenix, chicago
    case mexicoCity, newYork, toronto, bogota, lima, santiago, caracas, halifax
    case stJohns, saoPaulo, buenosAires, reykjavik, azores, lisbon, london, dublin
    case madrid, paris, brussels, amsterdam, berlin, zurich, rome, vienna
    case prague, warsaw, stockholm, oslo, copenhagen, helsinki, athens, istanbul
    case kyiv, moscow, cairo, lagos, johannesburg, nairobi, casablanca, jerusalem
    case riyadh, tehran, dubai, karachi, mumbai, delhi, kathmandu, dhaka
    case bangkok, jakarta, singapore, hongKong, beijing, shanghai, taipei, manila
    case seoul, tokyo, perth, adelaide, brisbane, sydney, melbourne, auckland
    case utc

    static var typeDisplayRepresentation = TypeDisplayRepresentation(name: "City")
    static var caseDisplayRepresentations: [City: DisplayRepresentation] = [
        .honolulu: "Honolulu",
        .anchorage: "Anchorage",
        .cupertino: "Cupertino",
        .losAngeles: "Los Angeles",
        .vancouver: "Vancouver",
        .denver: "Denver",
        .phoenix: "Phoenix",
        .chicago: "Chicago",
        .mexicoCity: "Mexico City",
        .newYork: "New York",
        .toronto: "Toronto",
        .bogota: "Bogotá",
        .lima: "Lima",
        .santiago: "Santiago",
        .caracas: "Caracas",
        .halifax: "Halifax",
        .stJohns: "St. John's",
        .saoPaulo: "São Paulo",
        .buenosAires: "Buenos Aires",
        .reykjavik: "Reykjavík",
        .azores: "Azores",
        .lisbon: "Lisbon",
        .london: "London",
        .dublin: "Dublin",
        .madrid: "Madrid",
        .paris: "Paris",
        .brussels: "Brussels",
        .amsterdam: "Amsterdam",
        .berlin: "Berlin",
        .zurich: "Zurich",
        .rome: "Rome",
        .vienna: "Vienna",
        .prague: "Prague",
        .warsaw: "Warsaw",
        .stockholm: "Stockholm",
        .oslo: "Oslo",
        .copenhagen: "Copenhagen",
        .helsinki: "Helsinki",
        .athens: "Athens",
        .istanbul: "Istanbul",
        .kyiv: "Kyiv",
        .moscow: "Moscow",
        .cairo: "Cairo",
        .lagos: "Lagos",
        .johannesburg: "Johannesburg",
        .nairobi: "Nairobi",
        .casablanca: "Casablanca",
        .jerusalem: "Jerusalem",
        .riyadh: "Riyadh",
        .tehran: "Tehran",
        .dubai: "Dubai",
        .karachi: "Karachi",
        .mumbai: "Mumbai",
        .delhi: "New Delhi",
        .kathmandu: "Kathmandu",
        .dhaka: "Dhaka",
        .bangkok: "Bangkok",
        .jakarta: "Jakarta",
        .singapore: "Singapore",
        .hongKong: "Hong Kong",
        .beijing: "Beijing",
        .shanghai: "Shanghai",
        .taipei: "Taipei",
        .manila: "Manila",
        .seoul: "Seoul",
        .tokyo: "Tokyo",
        .perth: "Perth",
        .adelaide: "Adelaide",
        .brisbane: "Brisbane",
        .sydney: "Sydney",
        .melbourne: "Melbourne",
        .auckland: "Auckland",
        .utc: "UTC",
    ]

    /// The name under the face.
    var name: String {
        switch self {
        case .honolulu: "Honolulu"
        case .anchorage: "Anchorage"
        case .cupertino: "Cupertino"
        case .losAngeles: "Los Angeles"
        case .vancouver: "Vancouver"
        case .denver: "Denver"
        case .phoenix: "Phoenix"
        case .chicago: "Chicago"
        case .mexicoCity: "Mexico City"
        case .newYork: "New York"
        case .toronto: "Toronto"
        case .bogota: "Bogotá"
        case .lima: "Lima"
        case .santiago: "Santiago"
        case .caracas: "Caracas"
        case .halifax: "Halifax"
        case .stJohns: "St. John's"
        case .saoPaulo: "São Paulo"
        case .buenosAires: "Buenos Aires"
        case .reykjavik: "Reykjavík"
        case .azores: "Azores"
        case .lisbon: "Lisbon"
        case .london: "London"
        case .dublin: "Dublin"
        case .madrid: "Madrid"
        case .paris: "Paris"
        case .brussels: "Brussels"
        case .amsterdam: "Amsterdam"
        case .berlin: "Berlin"
        case .zurich: "Zurich"
        case .rome: "Rome"
        case .vienna: "Vienna"
        case .prague: "Prague"
        case .warsaw: "Warsaw"
        case .stockholm: "Stockholm"
        case .oslo: "Oslo"
        case .copenhagen: "Copenhagen"
        case .helsinki: "Helsinki"
        case .athens: "Athens"
        case .istanbul: "Istanbul"
        case .kyiv: "Kyiv"
        case .moscow: "Moscow"
        case .cairo: "Cairo"
        case .lagos: "Lagos"
        case .johannesburg: "Johannesburg"
        case .nairobi: "Nairobi"
        case .casablanca: "Casablanca"
        case .jerusalem: "Jerusalem"
        case .riyadh: "Riyadh"
        case .tehran: "Tehran"
        case .dubai: "Dubai"
        case .karachi: "Karachi"
        case .mumbai: "Mumbai"
        case .delhi: "New Delhi"
        case .kathmandu: "Kathmandu"
        case .dhaka: "Dhaka"
        case .bangkok: "Bangkok"
        case .jakarta: "Jakarta"
        case .singapore: "Singapore"
        case .hongKong: "Hong Kong"
        case .beijing: "Beijing"
        case .shanghai: "Shanghai"
        case .taipei: "Taipei"
        case .manila: "Manila"
        case .seoul: "Seoul"
        case .tokyo: "Tokyo"
        case .perth: "Perth"
        case .adelaide: "Adelaide"
        case .brisbane: "Brisbane"
        case .sydney: "Sydney"
        case .melbourne: "Melbourne"
        case .auckland: "Auckland"
        case .utc: "UTC"
        }
    }

    /// The IANA time zone (a file under `/usr/share/zoneinfo`).
    var zone: String {
        switch self {
        case .honolulu: "Pacific/Honolulu"
        case .anchorage: "America/Anchorage"
        case .cupertino: "America/Los_Angeles"
        case .losAngeles: "America/Los_Angeles"
        case .vancouver: "America/Vancouver"
        case .denver: "America/Denver"
        case .phoenix: "America/Phoenix"
        case .chicago: "America/Chicago"
        case .mexicoCity: "America/Mexico_City"
        case .newYork: "America/New_York"
        case .toronto: "America/Toronto"
        case .bogota: "America/Bogota"
        case .lima: "America/Lima"
        case .santiago: "America/Santiago"
        case .caracas: "America/Caracas"
        case .halifax: "America/Halifax"
        case .stJohns: "America/St_Johns"
        case .saoPaulo: "America/Sao_Paulo"
        case .buenosAires: "America/Argentina/Buenos_Aires"
        case .reykjavik: "Atlantic/Reykjavik"
        case .azores: "Atlantic/Azores"
        case .lisbon: "Europe/Lisbon"
        case .london: "Europe/London"
        case .dublin: "Europe/Dublin"
        case .madrid: "Europe/Madrid"
        case .paris: "Europe/Paris"
        case .brussels: "Europe/Brussels"
        case .amsterdam: "Europe/Amsterdam"
        case .berlin: "Europe/Berlin"
        case .zurich: "Europe/Zurich"
        case .rome: "Europe/Rome"
        case .vienna: "Europe/Vienna"
        case .prague: "Europe/Prague"
        case .warsaw: "Europe/Warsaw"
        case .stockholm: "Europe/Stockholm"
        case .oslo: "Europe/Oslo"
        case .copenhagen: "Europe/Copenhagen"
        case .helsinki: "Europe/Helsinki"
        case .athens: "Europe/Athens"
        case .istanbul: "Europe/Istanbul"
        case .kyiv: "Europe/Kyiv"
        case .moscow: "Europe/Moscow"
        case .cairo: "Africa/Cairo"
        case .lagos: "Africa/Lagos"
        case .johannesburg: "Africa/Johannesburg"
        case .nairobi: "Africa/Nairobi"
        case .casablanca: "Africa/Casablanca"
        case .jerusalem: "Asia/Jerusalem"
        case .riyadh: "Asia/Riyadh"
        case .tehran: "Asia/Tehran"
        case .dubai: "Asia/Dubai"
        case .karachi: "Asia/Karachi"
        case .mumbai: "Asia/Kolkata"
        case .delhi: "Asia/Kolkata"
        case .kathmandu: "Asia/Kathmandu"
        case .dhaka: "Asia/Dhaka"
        case .bangkok: "Asia/Bangkok"
        case .jakarta: "Asia/Jakarta"
        case .singapore: "Asia/Singapore"
        case .hongKong: "Asia/Hong_Kong"
        case .beijing: "Asia/Shanghai"
        case .shanghai: "Asia/Shanghai"
        case .taipei: "Asia/Taipei"
        case .manila: "Asia/Manila"
        case .seoul: "Asia/Seoul"
        case .tokyo: "Asia/Tokyo"
        case .perth: "Australia/Perth"
        case .adelaide: "Australia/Adelaide"
        case .brisbane: "Australia/Brisbane"
        case .sydney: "Australia/Sydney"
        case .melbourne: "Australia/Melbourne"
        case .auckland: "Pacific/Auckland"
        case .utc: "UTC"
        }
    }

    /// Three letters for a small face: "CUP", "NEW", "SÃO".
    var abbreviation: String { String(name.uppercased().filter { $0 != " " && $0 != "." }.prefix(3)) }
}
