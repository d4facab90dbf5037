module.exports = { displayName: 'testing', preset: '../../jest.preset.cjs' };
