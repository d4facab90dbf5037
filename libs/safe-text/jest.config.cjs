module.exports = { displayName: 'safe-text', preset: '../../jest.preset.cjs' };
