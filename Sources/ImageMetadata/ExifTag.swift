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
    static let dateTime: UInt16 = 0x0132
    static let jpegInterchangeFormat: UInt16 = 0x0201
    static let jpegInterchangeFormatLength: UInt16 = 0x0202
    static let exifIFDPointer: UInt16 = 0x8769
    static let gpsIFDPointer: UInt16 = 0x8825

    // Exif IFD
    static let exposureTime: UInt16 = 0x829A
    static let fNumber: UInt16 = 0x829D
    static let exposureProgram: UInt16 = 0x8822
    static let photographicSensitivity: UInt16 = 0x8827
    static let exifVersion: UInt16 = 0x9000
    static let dateTimeOriginal: UInt16 = 0x9003
    static let dateTimeDigitized: UInt16 = 0x9004
    static let offsetTime: UInt16 = 0x9010
    static let offsetTimeOriginal: UInt16 = 0x9011
    static let offsetTimeDigitized: UInt16 = 0x9012
    static let exposureBiasValue: UInt16 = 0x9204
    static let meteringMode: UInt16 = 0x9207
    static let flash: UInt16 = 0x9209
    static let focalLength: UInt16 = 0x920A
    static let subSecTime: UInt16 = 0x9290
    static let subSecTimeOriginal: UInt16 = 0x9291
    static let subSecTimeDigitized: UInt16 = 0x9292
    static let colorSpace: UInt16 = 0xA001
    static let pixelXDimension: UInt16 = 0xA002
    static let pixelYDimension: UInt16 = 0xA003
    static let whiteBalance: UInt16 = 0xA403
    static let focalLengthIn35mmFilm: UInt16 = 0xA405
    static let lensMake: UInt16 = 0xA433
    static let lensModel: UInt16 = 0xA434

    // GPS IFD
    static let gpsVersionID: UInt16 = 0x0000
    static let gpsLatitudeRef: UInt16 = 0x0001
    static let gpsLatitude: UInt16 = 0x0002
    static let gpsLongitudeRef: UInt16 = 0x0003
    static let gpsLongitude: UInt16 = 0x0004
    static let gpsAltitudeRef: UInt16 = 0x0005
    static let gpsAltitude: UInt16 = 0x0006
}
