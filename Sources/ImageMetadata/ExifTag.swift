/// The TIFF/EXIF tags this module reads or writes, grouped by the IFD they live in.
enum ExifTag {
    // IFD0 and IFD1
    static let compression: UInt16 = 0x0103
    static let make: UInt16 = 0x010F
    static let model: UInt16 = 0x0110
    static let orientation: UInt16 = 0x0112
    static let xResolution: UInt16 = 0x011A
    static let yResolution: UInt16 = 0x011B
    static let resolutionUnit: UInt16 = 0x0128
    static let jpegInterchangeFormat: UInt16 = 0x0201
    static let jpegInterchangeFormatLength: UInt16 = 0x0202
    static let exifIFDPointer: UInt16 = 0x8769
    static let gpsIFDPointer: UInt16 = 0x8825

    // Exif IFD
    static let exposureTime: UInt16 = 0x829A
    static let fNumber: UInt16 = 0x829D
    static let photographicSensitivity: UInt16 = 0x8827
    static let exifVersion: UInt16 = 0x9000
    static let dateTimeOriginal: UInt16 = 0x9003
    static let offsetTime: UInt16 = 0x9010
    static let offsetTimeOriginal: UInt16 = 0x9011
    static let focalLength: UInt16 = 0x920A
    static let subSecTimeOriginal: UInt16 = 0x9291
    static let pixelXDimension: UInt16 = 0xA002
    static let pixelYDimension: UInt16 = 0xA003

    // GPS IFD
    static let gpsVersionID: UInt16 = 0x0000
    static let gpsLatitudeRef: UInt16 = 0x0001
    static let gpsLatitude: UInt16 = 0x0002
    static let gpsLongitudeRef: UInt16 = 0x0003
    static let gpsLongitude: UInt16 = 0x0004
    static let gpsAltitudeRef: UInt16 = 0x0005
    static let gpsAltitude: UInt16 = 0x0006
}
