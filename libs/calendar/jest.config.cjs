module.exports = { displayName: 'calendar', preset: '../../jest.preset.cjs' };
