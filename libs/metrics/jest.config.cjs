module.exports = { displayName: 'metrics', preset: '../../jest.preset.cjs' };
