module.exports = { displayName: 'notifications', preset: '../../jest.preset.cjs' };
