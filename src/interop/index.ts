// Interoperability with other tools: SillyTavern character cards and World Info files, imported as
// cartridges and exported back (docs/sillytavern.md).
