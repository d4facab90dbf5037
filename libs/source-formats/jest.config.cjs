module.exports = { displayName: 'source-formats', preset: '../../jest.preset.cjs' };
